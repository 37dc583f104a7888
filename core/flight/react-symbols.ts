// The `$$typeof` tags React stamps on elements, special types and references.
// They are global symbols, so ours and React's are the same values.
export const REACT_ELEMENT_TYPE = Symbol.for("react.transitional.element");
export const REACT_LEGACY_ELEMENT_TYPE = Symbol.for("react.element");
export const REACT_FRAGMENT_TYPE = Symbol.for("react.fragment");
export const REACT_CONTEXT_TYPE = Symbol.for("react.context");
export const REACT_FORWARD_REF_TYPE = Symbol.for("react.forward_ref");
export const REACT_MEMO_TYPE = Symbol.for("react.memo");
export const REACT_LAZY_TYPE = Symbol.for("react.lazy");
export const REACT_MEMO_CACHE_SENTINEL = Symbol.for("react.memo_cache_sentinel");

export const CLIENT_REFERENCE_TAG = Symbol.for("react.client.reference");
export const SERVER_REFERENCE_TAG = Symbol.for("react.server.reference");
export const TEMPORARY_REFERENCE_TAG = Symbol.for("react.temporary.reference");
