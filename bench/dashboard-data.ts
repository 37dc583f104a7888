// The data of scenario F, shaped as React's fixtures/flight-ssr-bench
// (facebook/react) shapes it: product rows with nested reviews,
// specifications, a supplier with its address, dimensions and tag arrays
// (about 1.3 KB each once serialized), activities with order details, and
// the stats of a store. Our own generator: deterministic, no timers.

const CATEGORIES = ["Electronics", "Clothing", "Home & Garden", "Sports", "Books", "Toys", "Food", "Health"];
const STATUSES = ["In Stock", "Low Stock", "Out of Stock", "Discontinued"];
const ACTIVITY_TYPES = ["order_placed", "order_shipped", "order_delivered", "refund_requested", "review_posted", "product_added", "stock_alert", "payment_received"];
const PEOPLE = ["Ada Brooks", "Ben Carter", "Chloe Diaz", "Dev Ellis", "Emma Flores", "Finn Grant", "Gia Hayes", "Hugo Ivers", "Isla James", "Jon Keller"];
const CITIES: [string, string][] = [["Portland", "OR"], ["Austin", "TX"], ["Denver", "CO"], ["Seattle", "WA"], ["Boston", "MA"]];
const MATERIALS = ["Aluminum", "Plastic", "Steel", "Wood", "Carbon Fiber"];
const COLORS = ["Black", "White", "Silver", "Blue", "Red", "Green"];
const SHIPPING = ["Standard", "Express", "Overnight", "Economy"];
const PAYMENT = ["Credit Card", "PayPal", "Apple Pay", "Wire Transfer"];
const REVIEWS = [
  "Does exactly what the listing promised. Solid build, arrived two days early, and setup took minutes.",
  "Good value overall. The box was dented in transit, but the item itself works without any trouble.",
  "Smaller than the photos suggest and the finish feels cheap. Sending it back for a refund this week.",
  "Excellent craftsmanship and attention to detail. I have already recommended it to several friends.",
  "It is fine. Nothing remarkable either way; it works as described and that is about all there is.",
];

const pick = <T>(list: T[], n: number): T => list[n % list.length];
const pad = (n: number, width: number) => String(n).padStart(width, "0");
const day = (month: number, n: number) => `2026-${pad(month, 2)}-${pad((n % 28) + 1, 2)}`;

export interface Review {
  author: string;
  rating: number;
  date: string;
  text: string;
  helpful: number;
}

export interface Product {
  id: number;
  name: string;
  sku: string;
  price: string;
  category: string;
  status: string;
  stock: number;
  rating: string;
  reviewCount: number;
  description: string;
  tags: string[];
  dimensions: { weight: number; width: number; height: number; depth: number; unit: string };
  supplier: { name: string; leadTime: string; minOrder: number; contact: string; address: { street: string; city: string; state: string; zip: string } };
  specifications: { material: string; color: string; warranty: string; certifications: string[] };
  reviews: Review[];
}

function review(i: number, k: number): Review {
  return {
    author: pick(PEOPLE, i * 3 + k),
    rating: ((i * (5 + 2 * k) + k + 3) % 5) + 1,
    date: day((i % 3) + 1, i + 5 * k),
    text: pick(REVIEWS, i + 2 * k),
    helpful: (i * (11 - 3 * k) + 2 + k) % (50 - 15 * k),
  };
}

export function dashboardProducts(count: number): Product[] {
  const products: Product[] = [];
  for (let i = 0; i < count; i++) {
    const [city, state] = pick(CITIES, i);
    products.push({
      id: i,
      name: "Product " + i,
      sku: "SKU-" + pad(i, 6),
      price: (((i * 17 + 3) % 9999) / 100).toFixed(2),
      category: pick(CATEGORIES, i),
      status: pick(STATUSES, i),
      stock: (i * 7 + 13) % 500,
      rating: (((i * 3 + 1) % 50) / 10).toFixed(1),
      reviewCount: (i * 13 + 5) % 200,
      description: `Product ${i} in detail: what it is made of, what it does, the features that set it apart, and what a buyer should know first.`,
      tags: [pick(CATEGORIES, i + 1).toLowerCase(), i % 2 ? "new" : "featured", i % 3 ? "regular" : "sale"],
      dimensions: { weight: ((i * 3 + 1) % 100) / 10, width: ((i * 7 + 2) % 50) + 5, height: ((i * 11 + 3) % 40) + 5, depth: ((i * 13 + 4) % 30) + 2, unit: "cm" },
      supplier: {
        name: "Supplier " + (i % 20),
        leadTime: (i % 14) + 1 + " days",
        minOrder: ((i * 3) % 50) + 10,
        contact: `orders@supplier${i % 20}.example.com`,
        address: { street: ((100 + i * 7) % 9999) + " Commerce Way", city, state, zip: String(10000 + ((i * 37) % 89999)) },
      },
      specifications: {
        material: pick(MATERIALS, i),
        color: pick(COLORS, i),
        warranty: (i % 3) + 1 + " years",
        certifications: [i % 2 ? "FCC" : "CE", i % 3 ? "UL" : "RoHS", "ISO 9001"],
      },
      reviews: [review(i, 0), review(i, 1), review(i, 2)],
    });
  }
  return products;
}

export interface Activity {
  id: number;
  type: string;
  user: string;
  timestamp: string;
  details: { orderId: string; amount: string; items: number; shippingMethod: string; paymentMethod: string };
  message: string;
}

export function dashboardActivities(count: number): Activity[] {
  const activities: Activity[] = [];
  for (let i = 0; i < count; i++) {
    const type = pick(ACTIVITY_TYPES, i);
    const user = pick(PEOPLE, i);
    activities.push({
      id: i,
      type,
      user,
      timestamp: `${day(3, i)}T${pad((i * 7) % 24, 2)}:${pad((i * 13) % 60, 2)}:00Z`,
      details: {
        orderId: "#" + (10000 + i),
        amount: "$" + ((i * 23 + 7) % 999).toFixed(2),
        items: ((i * 3 + 1) % 5) + 1,
        shippingMethod: pick(SHIPPING, i),
        paymentMethod: pick(PAYMENT, i),
      },
      message: `${user} ${type.replaceAll("_", " ")} for order #${10000 + i}`,
    });
  }
  return activities;
}

/** The product table's columns. */
export const DASHBOARD_COLUMNS = [
  { key: "name", label: "Product" },
  { key: "sku", label: "SKU" },
  { key: "category", label: "Category" },
  { key: "price", label: "Price" },
  { key: "stock", label: "Stock" },
  { key: "status", label: "Status" },
  { key: "rating", label: "Rating" },
];

export interface StatCardData {
  title: string;
  value: string;
  change: string;
  trend: "up" | "down";
  sparkline: number[];
}

/** Twelve points rising (or falling) with some wobble. */
const series = (start: number, step: number, wobble: number) => Array.from({ length: 12 }, (_, i) => Math.round((start + i * step + ((i * 7) % 5) * wobble) * 10) / 10);

export function dashboardStats() {
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const cards: StatCardData[] = [
    { title: "Total Revenue", value: "$1,284,320", change: "+12.5%", trend: "up", sparkline: series(60, 4, 3) },
    { title: "Orders", value: "8,432", change: "+8.2%", trend: "up", sparkline: series(30, 5, 6) },
    { title: "Customers", value: "3,841", change: "+4.1%", trend: "up", sparkline: series(12, 4, 1) },
    { title: "Conversion Rate", value: "3.2%", change: "-0.3%", trend: "down", sparkline: series(3.8, -0.05, 0.1) },
  ];
  return {
    totalRevenue: "$1,284,320.50",
    totalOrders: 8432,
    totalCustomers: 3841,
    conversionRate: "3.2%",
    avgOrderValue: "$152.30",
    returnsRate: "2.1%",
    cards,
    // Two years by month.
    revenueByMonth: Array.from({ length: 24 }, (_, i) => {
      const value = 72000 + i * 2500 + ((i * 7919) % 9) * 1500;
      return { month: `${months[i % 12]} ${25 + Math.floor(i / 12)}`, value, orders: Math.round(value / 150), returns: 24 + ((i * 5) % 24) };
    }),
    topCategories: CATEGORIES.map((name, i) => {
      const revenue = 420000 - i * 45000;
      const orders = 2800 - i * 300;
      return { name, revenue, orders, avgPrice: Math.round((revenue / orders) * 10) / 10, growth: `+${((i * 37) % 23) + 2}.${i}%` };
    }),
  };
}

export type Stats = ReturnType<typeof dashboardStats>;
