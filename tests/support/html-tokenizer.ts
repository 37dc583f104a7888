// The tokenizer of the HTML standard (https://html.spec.whatwg.org/#tokenization),
// for the tests that must read a page as a browser does: which `<script`
// opens an element, and which sits inside an attribute value, a comment or
// another element's text. Its states are the standard's, except three
// shortcuts that never change which state a character is read in: character
// references are decoded afterwards (only React's five and numeric ones),
// the DOCTYPE is read to its first `>` (where each of its states ends), and
// NUL and CR are left as they are. Of tree construction it takes what
// switches the tokenizer's state: the text elements (script, style, title,
// textarea...) and foreign content (svg, math), where those are ordinary
// elements and CDATA sections exist.

export type Token =
  | { kind: "start"; name: string; attributes: [string, string][]; selfClosing: boolean; at: number; end: number }
  | { kind: "end"; name: string; at: number; end: number }
  | { kind: "comment"; data: string; at: number; end: number }
  | { kind: "doctype"; at: number; end: number }
  /** A run of characters: data, an element's text, or a CDATA section. */
  | { kind: "text"; data: string; at: number; end: number };

const TEXT_STATES: Record<string, State> = {
  script: "scriptData",
  style: "rawtext", xmp: "rawtext", iframe: "rawtext", noembed: "rawtext", noframes: "rawtext", noscript: "rawtext",
  title: "rcdata", textarea: "rcdata",
  plaintext: "plaintext",
};

type State =
  | "data" | "rcdata" | "rawtext" | "scriptData" | "plaintext"
  | "tagOpen" | "endTagOpen" | "tagName"
  | "textLessThan" | "textEndTagOpen" | "textEndTagName"
  | "scriptEscapeStart" | "scriptEscapeStartDash" | "scriptEscaped" | "scriptEscapedDash" | "scriptEscapedDashDash"
  | "scriptEscapedLessThan" | "scriptDoubleEscapeStart" | "scriptDoubleEscaped" | "scriptDoubleEscapedDash"
  | "scriptDoubleEscapedDashDash" | "scriptDoubleEscapedLessThan" | "scriptDoubleEscapeEnd"
  | "beforeAttributeName" | "attributeName" | "afterAttributeName" | "beforeAttributeValue"
  | "attributeValueDouble" | "attributeValueSingle" | "attributeValueUnquoted" | "afterAttributeValueQuoted"
  | "selfClosingStartTag" | "bogusComment" | "markupDeclarationOpen" | "doctype"
  | "commentStart" | "commentStartDash" | "comment" | "commentLessThan" | "commentLessThanBang"
  | "commentLessThanBangDash" | "commentLessThanBangDashDash" | "commentEndDash" | "commentEnd" | "commentEndBang"
  | "cdataSection" | "cdataSectionBracket" | "cdataSectionEnd";

const isWhitespace = (c: string) => c === "\t" || c === "\n" || c === "\f" || c === " " || c === "\r";
const isAlpha = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
const NAMED_REFERENCES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** `&amp;`, `&#x27;`, ... as the characters they stand for; other `&`s as they are. */
function decodeReferences(text: string): string {
  return text.replace(/&(?:#x([0-9a-f]+)|#([0-9]+)|([a-z]+));/gi, (reference, hex, decimal, name) => {
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
    if (decimal !== undefined) return String.fromCodePoint(parseInt(decimal, 10));
    return NAMED_REFERENCES[name] ?? reference;
  });
}

export function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  let state = "data" as State;
  /** The state the current text element's text is read in, while one is open. */
  let textState = "data" as State;
  let foreignDepth = 0;
  /** The run of characters being read: where it starts, while one is. */
  let inText = false;
  let textAt = 0;
  let tagAt = 0;
  let tag: { end: boolean; name: string; attributes: [string, string][]; selfClosing: boolean } | null = null;
  let attribute: [string, string] = ["", ""];
  let valueAt = 0;
  let comment = "";
  /** The end tag name seen so far inside a text element, and the script data's escape buffer. */
  let buffer = "";
  /** The name of the text element that is open, whose end tag ends its text. */
  let openText = "";
  /** Where a text element's `</` that is not its end tag goes back to. */
  let endTagFallback: State = "data";

  // Each character read is the source's own at that place (or the `<`, `</name` before it): runs are slices of the source.
  const emitText = (end: number) => {
    if (!inText) return;
    inText = false;
    const data = html.slice(textAt, end);
    const decodes = openText === "" || TEXT_STATES[openText] === "rcdata";
    tokens.push({ kind: "text", data: decodes ? decodeReferences(data) : data, at: textAt, end });
  };
  const character = (at: number) => {
    if (inText) return;
    inText = true;
    textAt = at;
  };
  const newTag = (end: boolean, at: number) => {
    tagAt = at;
    tag = { end, name: "", attributes: [], selfClosing: false };
  };
  const newAttribute = () => {
    attribute = ["", ""];
    tag!.attributes.push(attribute);
  };
  const emitTag = (end: number) => {
    const { name, attributes, selfClosing } = tag!;
    for (const pair of attributes) pair[1] = decodeReferences(pair[1]);
    if (tag!.end) {
      tokens.push({ kind: "end", name, at: tagAt, end });
      if (foreignDepth > 0 && (name === "svg" || name === "math")) foreignDepth--;
      state = "data";
      return;
    }
    tokens.push({ kind: "start", name, attributes, selfClosing, at: tagAt, end });
    state = "data";
    if (foreignDepth > 0 || name === "svg" || name === "math") {
      if ((name === "svg" || name === "math") && !selfClosing) foreignDepth++;
      return;
    }
    if (TEXT_STATES[name]) {
      state = textState = TEXT_STATES[name];
      openText = name;
    }
  };
  const emitComment = (end: number) => tokens.push({ kind: "comment", data: comment, at: tagAt, end });
  let i = 0;
  /** Just before the next `<` (or the end), where the loop goes on. */
  const nextLessThan = (from: number) => {
    const next = html.indexOf("<", from);
    return (next === -1 ? html.length : next) - 1;
  };
  const reconsume = (next: State) => {
    state = next;
    i--;
  };

  for (; i <= html.length; i++) {
    const c = i < html.length ? html[i] : "";
    const eof = i === html.length;
    switch (state) {
      // Text runs up to the next `<`, read in one step.
      case "data":
        if (c === "<") {
          emitText(i);
          state = "tagOpen";
          tagAt = i;
        } else if (!eof) {
          character(i);
          i = nextLessThan(i);
        }
        break;
      case "rcdata":
      case "rawtext":
      case "scriptData":
        if (c === "<") state = "textLessThan";
        else if (!eof) {
          character(i);
          i = nextLessThan(i);
        }
        break;
      case "plaintext":
        if (!eof) character(i);
        i = html.length - 1;
        break;
      case "tagOpen":
        if (c === "!") state = "markupDeclarationOpen";
        else if (c === "/") state = "endTagOpen";
        else if (isAlpha(c)) {
          newTag(false, i - 1);
          reconsume("tagName");
        } else if (c === "?") {
          comment = "";
          reconsume("bogusComment");
        } else {
          character(i - 1);
          reconsume("data");
        }
        break;
      case "endTagOpen":
        if (isAlpha(c)) {
          newTag(true, i - 2);
          reconsume("tagName");
        } else if (c === ">") state = "data";
        else if (eof) character(i - 2);
        else {
          comment = "";
          reconsume("bogusComment");
        }
        break;
      case "tagName":
        if (isWhitespace(c)) state = "beforeAttributeName";
        else if (c === "/") state = "selfClosingStartTag";
        else if (c === ">") emitTag(i + 1);
        else if (!eof) tag!.name += c.toLowerCase();
        break;
      // A text element's `<`: its end tag, or text (script data may open an escape).
      case "textLessThan":
        if (c === "/") {
          buffer = "";
          endTagFallback = textState;
          state = "textEndTagOpen";
        } else if (c === "!" && textState === "scriptData") {
          character(i - 1);
          state = "scriptEscapeStart";
        } else {
          character(i - 1);
          reconsume(textState);
        }
        break;
      case "textEndTagOpen":
        if (isAlpha(c)) {
          newTag(true, i - 2);
          reconsume("textEndTagName");
        } else {
          character(i - 2);
          reconsume(endTagFallback);
        }
        break;
      case "textEndTagName":
        if ((isWhitespace(c) || c === "/" || c === ">") && buffer.toLowerCase() === openText) {
          emitText(tagAt);
          tag!.name = openText;
          openText = "";
          textState = "data";
          if (c === ">") emitTag(i + 1);
          else state = c === "/" ? "selfClosingStartTag" : "beforeAttributeName";
        } else if (isAlpha(c)) buffer += c;
        else {
          // Not its end tag: what was read goes back into the text.
          character(tagAt);
          reconsume(endTagFallback);
        }
        break;
      case "scriptEscapeStart":
        if (c === "-") {
          character(i);
          state = "scriptEscapeStartDash";
        } else reconsume("scriptData");
        break;
      case "scriptEscapeStartDash":
        if (c === "-") {
          character(i);
          state = "scriptEscapedDashDash";
        } else reconsume("scriptData");
        break;
      case "scriptEscaped":
      case "scriptEscapedDash":
      case "scriptEscapedDashDash":
        if (c === "-") {
          character(i);
          state = state === "scriptEscaped" ? "scriptEscapedDash" : "scriptEscapedDashDash";
        } else if (c === "<") state = "scriptEscapedLessThan";
        else if (c === ">" && state === "scriptEscapedDashDash") {
          character(i);
          state = "scriptData";
        } else {
          if (!eof) character(i);
          state = "scriptEscaped";
        }
        break;
      case "scriptEscapedLessThan":
        if (c === "/") {
          buffer = "";
          endTagFallback = "scriptEscaped";
          state = "textEndTagOpen";
        } else if (isAlpha(c)) {
          buffer = "";
          character(i - 1);
          reconsume("scriptDoubleEscapeStart");
        } else {
          character(i - 1);
          reconsume("scriptEscaped");
        }
        break;
      case "scriptDoubleEscapeStart":
      case "scriptDoubleEscapeEnd": {
        const starting: boolean = state === "scriptDoubleEscapeStart";
        if (isWhitespace(c) || c === "/" || c === ">") {
          character(i);
          const isScript = buffer.toLowerCase() === "script";
          state = starting ? (isScript ? "scriptDoubleEscaped" : "scriptEscaped") : isScript ? "scriptEscaped" : "scriptDoubleEscaped";
        } else if (isAlpha(c)) {
          character(i);
          buffer += c;
        } else reconsume(starting ? "scriptEscaped" : "scriptDoubleEscaped");
        break;
      }
      case "scriptDoubleEscaped":
      case "scriptDoubleEscapedDash":
      case "scriptDoubleEscapedDashDash":
        if (c === "-") {
          character(i);
          state = state === "scriptDoubleEscaped" ? "scriptDoubleEscapedDash" : "scriptDoubleEscapedDashDash";
        } else if (c === "<") {
          character(i);
          state = "scriptDoubleEscapedLessThan";
        } else if (c === ">" && state === "scriptDoubleEscapedDashDash") {
          character(i);
          state = "scriptData";
        } else {
          if (!eof) character(i);
          state = "scriptDoubleEscaped";
        }
        break;
      case "scriptDoubleEscapedLessThan":
        if (c === "/") {
          character(i);
          buffer = "";
          state = "scriptDoubleEscapeEnd";
        } else reconsume("scriptDoubleEscaped");
        break;
      case "beforeAttributeName":
        if (isWhitespace(c)) break;
        if (c === "/" || c === ">" || eof) reconsume("afterAttributeName");
        else if (c === "=") {
          newAttribute();
          attribute[0] = c;
          state = "attributeName";
        } else {
          newAttribute();
          reconsume("attributeName");
        }
        break;
      case "attributeName":
        if (isWhitespace(c) || c === "/" || c === ">" || eof) reconsume("afterAttributeName");
        else if (c === "=") state = "beforeAttributeValue";
        else attribute[0] += c.toLowerCase();
        break;
      case "afterAttributeName":
        if (isWhitespace(c)) break;
        if (c === "/") state = "selfClosingStartTag";
        else if (c === "=") state = "beforeAttributeValue";
        else if (c === ">") emitTag(i + 1);
        else if (!eof) {
          newAttribute();
          reconsume("attributeName");
        }
        break;
      case "beforeAttributeValue":
        if (isWhitespace(c)) break;
        valueAt = i + 1;
        if (c === '"') state = "attributeValueDouble";
        else if (c === "'") state = "attributeValueSingle";
        else if (c === ">") emitTag(i + 1);
        else {
          valueAt = i;
          reconsume("attributeValueUnquoted");
        }
        break;
      case "attributeValueDouble":
      case "attributeValueSingle":
        if (c === (state === "attributeValueDouble" ? '"' : "'")) {
          attribute[1] = html.slice(valueAt, i);
          state = "afterAttributeValueQuoted";
        } else if (!eof) {
          const quote = html.indexOf(state === "attributeValueDouble" ? '"' : "'", i);
          i = (quote === -1 ? html.length : quote) - 1;
        }
        break;
      case "attributeValueUnquoted":
        if (isWhitespace(c) || c === ">" || eof) attribute[1] = html.slice(valueAt, i);
        if (isWhitespace(c)) state = "beforeAttributeName";
        else if (c === ">") emitTag(i + 1);
        break;
      case "afterAttributeValueQuoted":
        if (isWhitespace(c)) state = "beforeAttributeName";
        else if (c === "/") state = "selfClosingStartTag";
        else if (c === ">") emitTag(i + 1);
        else if (!eof) reconsume("beforeAttributeName");
        break;
      case "selfClosingStartTag":
        if (c === ">") {
          tag!.selfClosing = true;
          emitTag(i + 1);
        } else if (!eof) reconsume("beforeAttributeName");
        break;
      case "bogusComment":
        if (c === ">" || eof) {
          emitComment(i + 1);
          state = "data";
        } else comment += c;
        break;
      case "markupDeclarationOpen":
        comment = "";
        if (html.startsWith("--", i)) {
          i += 1;
          state = "commentStart";
        } else if (html.slice(i, i + 7).toUpperCase() === "DOCTYPE") {
          i += 6;
          state = "doctype";
        } else if (foreignDepth > 0 && html.startsWith("[CDATA[", i)) {
          i += 6;
          state = "cdataSection";
        } else reconsume("bogusComment");
        break;
      case "doctype":
        if (c === ">" || eof) {
          tokens.push({ kind: "doctype", at: tagAt, end: i + 1 });
          state = "data";
        }
        break;
      case "commentStart":
        if (c === "-") state = "commentStartDash";
        else if (c === ">") {
          emitComment(i + 1);
          state = "data";
        } else reconsume("comment");
        break;
      case "commentStartDash":
        if (c === "-") state = "commentEnd";
        else if (c === ">" || eof) {
          emitComment(i + 1);
          state = "data";
        } else {
          comment += "-";
          reconsume("comment");
        }
        break;
      case "comment":
        if (c === "<") {
          comment += c;
          state = "commentLessThan";
        } else if (c === "-") state = "commentEndDash";
        else if (eof) emitComment(i);
        else comment += c;
        break;
      case "commentLessThan":
        if (c === "!") {
          comment += c;
          state = "commentLessThanBang";
        } else if (c === "<") comment += c;
        else reconsume("comment");
        break;
      case "commentLessThanBang":
        if (c === "-") state = "commentLessThanBangDash";
        else reconsume("comment");
        break;
      case "commentLessThanBangDash":
        if (c === "-") state = "commentLessThanBangDashDash";
        else reconsume("commentEndDash");
        break;
      case "commentLessThanBangDashDash":
        reconsume("commentEnd");
        break;
      case "commentEndDash":
        if (c === "-") state = "commentEnd";
        else if (eof) emitComment(i);
        else {
          comment += "-";
          reconsume("comment");
        }
        break;
      case "commentEnd":
        if (c === ">" || eof) {
          emitComment(i + 1);
          state = "data";
        } else if (c === "!") state = "commentEndBang";
        else if (c === "-") comment += "-";
        else {
          comment += "--";
          reconsume("comment");
        }
        break;
      case "commentEndBang":
        if (c === "-") {
          comment += "--!";
          state = "commentEndDash";
        } else if (c === ">" || eof) {
          emitComment(i + 1);
          state = "data";
        } else {
          comment += "--!";
          reconsume("comment");
        }
        break;
      case "cdataSection":
        if (c === "]") state = "cdataSectionBracket";
        else if (!eof) character(i);
        else emitText(i);
        break;
      case "cdataSectionBracket":
        if (c === "]") state = "cdataSectionEnd";
        else {
          character(i - 1);
          reconsume("cdataSection");
        }
        break;
      case "cdataSectionEnd":
        if (c === "]") character(i - 2);
        else if (c === ">") {
          emitText(i - 2);
          state = "data";
        } else {
          character(i - 2);
          reconsume("cdataSection");
        }
        break;
    }
  }
  emitText(html.length);
  return tokens;
}
