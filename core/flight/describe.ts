// Short pictures of where a bad value sits, appended to serialization errors
// in React's format:  {a: ..., onClick: function onClick}
//                              ^^^^^^^^^^^^^^^^^^^^^^^^
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
  if (Array.isArray(object)) {
    text = "[";
    for (let i = 0; i < object.length; i++) append(i > 0 ? ", " : "", describeChild(object[i]), String(i) === expanded);
    text += "]";
  } else if (object.$$typeof === REACT_ELEMENT_TYPE) {
    text = "<" + describeElementType(object.type) + "/>";
  } else {
    if (object.$$typeof === CLIENT_REFERENCE_TAG) return "client";
    text = "{";
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) {
      const name = keys[i];
      const encoded = JSON.stringify(name);
      const label = (i > 0 ? ", " : "") + ('"' + name + '"' === encoded ? name : encoded) + ": ";
      append(label, describeChild(object[name]), name === expanded);
    }
    text += "}";
  }
  if (expanded === undefined) return text;
  return start > -1 && length > 0 ? "\n  " + text + "\n  " + " ".repeat(start) + "^".repeat(length) : "\n  " + text;
}
