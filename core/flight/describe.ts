// Short pictures of where a bad value sits, appended to serialization errors
// in React's format:  {a: ..., onClick: function onClick}
//                              ^^^^^^^^^^^^^^^^^^^^^^^^
// In development an element's props (and its children array) are pictured in
// JSX form, as React does:  <div className="foo" onClick={function onClick}>
import { CLIENT_REFERENCE_TAG, REACT_ELEMENT_TYPE, REACT_FORWARD_REF_TYPE, REACT_LAZY_TYPE, REACT_MEMO_TYPE } from "./react-symbols.ts";

const SUSPENSE = Symbol.for("react.suspense");
const SUSPENSE_LIST = Symbol.for("react.suspense_list");
const VIEW_TRANSITION = Symbol.for("react.view_transition");

function objectName(value: unknown): string {
  const tag = Object.prototype.toString.call(value);
  return tag.slice(8, tag.length - 1);
}

function describeValue(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value.length <= 10 ? value : value.slice(0, 10) + "...");
    case "object": {
      if (Array.isArray(value)) return "[...]";
      if (value !== null && (value as any).$$typeof === CLIENT_REFERENCE_TAG) return "client";
      const name = objectName(value);
      return name === "Object" ? "{...}" : name;
    }
    case "function": {
      if ((value as any).$$typeof === CLIENT_REFERENCE_TAG) return "client";
      const name = (value as any).displayName || value.name;
      return name ? "function " + name : "function";
    }
    default:
      return String(value);
  }
}

function describeElementType(type: any): string {
  if (typeof type === "string") return type;
  switch (type) {
    case SUSPENSE:
      return "Suspense";
    case SUSPENSE_LIST:
      return "SuspenseList";
    case VIEW_TRANSITION:
      return "ViewTransition";
  }
  if (type !== null && typeof type === "object") {
    switch (type.$$typeof) {
      case REACT_FORWARD_REF_TYPE:
        return describeElementType(type.render);
      case REACT_MEMO_TYPE:
        return describeElementType(type.type);
      case REACT_LAZY_TYPE:
        try {
          return describeElementType(type._init(type._payload));
        } catch {}
    }
  }
  return "";
}

// Development records which objects are an element's props or children, by
// the element's type, as React's development build does (module-wide, as there).
const jsxPropsParents = new WeakMap<object, unknown>();
const jsxChildrenParents = new WeakMap<object, unknown>();

/** Development: remember `props` (and its children array) as an element of `type`'s. */
export function noteElementProps(type: unknown, props: any): void {
  jsxPropsParents.set(props, type);
  if (typeof props.children === "object" && props.children !== null) jsxChildrenParents.set(props.children, type);
}

/** Whether `parent[key]` is an element's child, where React names a function a bad child. */
export function isElementChild(parent: object, key: string | number): boolean {
  return jsxChildrenParents.has(parent) || (jsxPropsParents.has(parent) && key === "children");
}

function describeKey(name: string): string {
  const encoded = JSON.stringify(name);
  return '"' + name + '"' === encoded ? name : encoded;
}

function describeChild(value: unknown): string {
  return typeof value === "object" && value !== null ? describeObject(value) : describeValue(value);
}

/** Describes `object`, underlining the property `expandedKey` when given. */
export function describeObject(object: any, expandedKey?: string | number): string {
  const kind = objectName(object);
  if (kind !== "Object" && kind !== "Array") return kind;
  const expanded = expandedKey === undefined ? undefined : String(expandedKey);
  let start = -1;
  let length = 0;
  let text: string;
  const append = (label: string, value: string, isExpanded: boolean) => {
    text += label;
    if (isExpanded) {
      start = text.length;
      length = value.length;
      text += value;
    } else {
      text += value.length < 10 && text.length + value.length < 40 ? value : "...";
    }
  };
  if (Array.isArray(object) && jsxChildrenParents.has(object)) {
    const type = describeElementType(jsxChildrenParents.get(object));
    text = "<" + type + ">";
    for (let i = 0; i < object.length; i++) {
      const child = object[i];
      const picture = typeof child === "string" ? child : "{" + describeChild(child) + "}";
      if (String(i) === expanded) {
        start = text.length;
        length = picture.length;
        text += picture;
      } else {
        text += picture.length < 15 && text.length + picture.length < 40 ? picture : "{...}";
      }
    }
    text += "</" + type + ">";
  } else if (Array.isArray(object)) {
    text = "[";
    for (let i = 0; i < object.length; i++) append(i > 0 ? ", " : "", describeChild(object[i]), String(i) === expanded);
    text += "]";
  } else if (object.$$typeof === REACT_ELEMENT_TYPE) {
    text = "<" + describeElementType(object.type) + "/>";
  } else {
    if (object.$$typeof === CLIENT_REFERENCE_TAG) return "client";
    if (jsxPropsParents.has(object)) {
      text = "<" + (describeElementType(jsxPropsParents.get(object)) || "...");
      for (const name of Object.keys(object)) {
        const value = object[name];
        const described = name === expanded ? describeChild(value) : describeValue(value);
        append(" " + describeKey(name) + "=", typeof value === "string" ? described : "{" + described + "}", name === expanded);
      }
      text += ">";
    } else {
      text = "{";
      const keys = Object.keys(object);
      for (let i = 0; i < keys.length; i++) {
        const name = keys[i];
        append((i > 0 ? ", " : "") + describeKey(name) + ": ", describeChild(object[name]), name === expanded);
      }
      text += "}";
    }
  }
  if (expanded === undefined) return text;
  return start > -1 && length > 0 ? "\n  " + text + "\n  " + " ".repeat(start) + "^".repeat(length) : "\n  " + text;
}
