/**
 * The XML of WebDAV and CalDAV answers (RFC 4918 multistatus, RFC 4791), read without a
 * dependency: DAV answers are small documents of elements and text, and what matters in them is
 * each element's namespace, not its prefix (iCloud writes `<d:href>`, Nextcloud `<d:href>`,
 * Radicale `<href xmlns="DAV:">`, others `<D:href>`), so names are resolved to
 * (namespace, local name) as the Namespaces in XML recommendation says. Comments, processing
 * instructions and CDATA are read; entities are the five predefined ones and character
 * references. A DOCTYPE with declarations inside it is refused rather than expanded: no DAV
 * server needs one, and its entities are the classic way to make a parser read files or loop.
 */

export const DAV = 'DAV:';
export const CALDAV = 'urn:ietf:params:xml:ns:caldav';
export const APPLE_ICAL = 'http://apple.com/ns/ical/';

export type XmlElement = {
  ns: string;
  name: string;
  /** Character data directly inside the element (CDATA included), entities decoded. */
  text: string;
  children: XmlElement[];
  /** Attributes by their name as written (DAV's, such as comp's `name`, take no prefix). */
  attributes: Record<string, string>;
};

export class XmlError extends Error {
  override readonly name = 'XmlError';
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const ATTRIBUTE = /\s*([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

type Open = { element: XmlElement; qname: string; scope: Map<string, string> };

/** The root element of `text`, or an XmlError when it is not well-formed enough to read. */
export function parseXml(text: string): XmlElement {
  const stack: Open[] = [];
  let root: XmlElement | undefined;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    const chunk = text.slice(pos, lt === -1 ? text.length : lt);
    if (stack.length > 0) stack[stack.length - 1]!.element.text += decodeEntities(chunk);
    else if (chunk.trim() !== '') throw new XmlError('Text outside the root element.');
    if (lt === -1) break;
    if (text.startsWith('<?', lt)) pos = after(text, '?>', lt);
    else if (text.startsWith('<!--', lt)) pos = after(text, '-->', lt);
    else if (text.startsWith('<![CDATA[', lt)) {
      const end = after(text, ']]>', lt);
      if (stack.length === 0) throw new XmlError('CDATA outside the root element.');
      stack[stack.length - 1]!.element.text += text.slice(lt + 9, end - 3);
      pos = end;
    } else if (text.startsWith('<!DOCTYPE', lt)) {
      const end = after(text, '>', lt);
      if (text.slice(lt, end).includes('[')) throw new XmlError('A DOCTYPE with declarations is not read.');
      pos = end;
    } else if (text.startsWith('</', lt)) {
      const end = after(text, '>', lt);
      const qname = text.slice(lt + 2, end - 1).trim();
      const open = stack.pop();
      if (!open || open.qname !== qname) throw new XmlError(`Unexpected closing tag ${qname}.`);
      pos = end;
    } else {
      const tag = readTag(text, lt, stack[stack.length - 1]?.scope ?? new Map([['xml', XML_NS]]));
      if (stack.length > 0) stack[stack.length - 1]!.element.children.push(tag.element);
      else if (root) throw new XmlError('More than one root element.');
      else root = tag.element;
      if (!tag.selfClosing) stack.push(tag);
      pos = tag.end;
    }
  }
  if (!root || stack.length > 0) throw new XmlError('The document ends before its root element does.');
  return root;
}

function after(text: string, token: string, from: number): number {
  const at = text.indexOf(token, from);
  if (at === -1) throw new XmlError(`Unterminated ${text.slice(from, from + 9)}…`);
  return at + token.length;
}

function readTag(text: string, lt: number, parentScope: Map<string, string>): Open & { selfClosing: boolean; end: number } {
  const nameMatch = /[^\s/>]+/y;
  nameMatch.lastIndex = lt + 1;
  const qname = nameMatch.exec(text)?.[0];
  if (!qname) throw new XmlError('A tag without a name.');
  let pos = nameMatch.lastIndex;
  const attributes: [string, string][] = [];
  for (;;) {
    ATTRIBUTE.lastIndex = pos;
    const match = ATTRIBUTE.exec(text);
    if (!match) break;
    attributes.push([match[1]!, decodeEntities(match[2] ?? match[3] ?? '')]);
    pos = ATTRIBUTE.lastIndex;
  }
  const close = /\s*(\/?)>/y;
  close.lastIndex = pos;
  const closing = close.exec(text);
  if (!closing) throw new XmlError(`The tag ${qname} is not closed properly.`);
  let scope = parentScope;
  for (const [name, value] of attributes) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
    if (scope === parentScope) scope = new Map(parentScope);
    scope.set(name === 'xmlns' ? '' : name.slice(6), value);
  }
  const colon = qname.indexOf(':');
  const prefix = colon === -1 ? '' : qname.slice(0, colon);
  const ns = scope.get(prefix);
  if (ns === undefined && prefix !== '') throw new XmlError(`The prefix ${prefix} is not declared.`);
  const element: XmlElement = {
    ns: ns ?? '',
    name: qname.slice(colon + 1),
    text: '',
    children: [],
    attributes: Object.fromEntries(attributes),
  };
  return { element, qname, scope, selfClosing: closing[1] === '/', end: close.lastIndex };
}

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, name: string) => {
    if (name[0] !== '#') return PREDEFINED[name] ?? whole;
    const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The first child of `element` named (`ns`, `name`). */
export function child(element: XmlElement | undefined, ns: string, name: string): XmlElement | undefined {
  return element?.children.find((c) => c.ns === ns && c.name === name);
}

/** Every child of `element` named (`ns`, `name`). */
export function childrenNamed(element: XmlElement | undefined, ns: string, name: string): XmlElement[] {
  return element?.children.filter((c) => c.ns === ns && c.name === name) ?? [];
}

/** One `<response>` of a multistatus: its href and the properties found (2xx propstats only). */
export type DavResponse = { href: string; status: number | undefined; props: XmlElement[] };

/**
 * The responses of a DAV:multistatus document, or an XmlError when `text` is not one.
 * A property is kept only from a propstat whose status is 2xx: servers list the properties
 * they lack under 404 propstats, with empty elements that must not read as empty values.
 */
export function readMultistatus(text: string): DavResponse[] {
  const root = parseXml(text);
  if (root.ns !== DAV || root.name !== 'multistatus') throw new XmlError('Not a DAV multistatus document.');
  return childrenNamed(root, DAV, 'response').map((response) => {
    const props = childrenNamed(response, DAV, 'propstat')
      .filter((propstat) => isSuccess(statusOf(child(propstat, DAV, 'status'))))
      .flatMap((propstat) => child(propstat, DAV, 'prop')?.children ?? []);
    return { href: (child(response, DAV, 'href')?.text ?? '').trim(), status: statusOf(child(response, DAV, 'status')), props };
  });
}

/** A property of a response, by namespace and name. */
export function prop(response: DavResponse, ns: string, name: string): XmlElement | undefined {
  return response.props.find((p) => p.ns === ns && p.name === name);
}

/** The hrefs inside a property such as current-user-principal or calendar-home-set. */
export function hrefsOf(element: XmlElement | undefined): string[] {
  return childrenNamed(element, DAV, 'href')
    .map((href) => href.text.trim())
    .filter(Boolean);
}

/** "HTTP/1.1 200 OK" → 200. */
function statusOf(element: XmlElement | undefined): number | undefined {
  const match = /^\s*HTTP\/\S+\s+(\d{3})/.exec(element?.text ?? '');
  return match ? Number(match[1]) : undefined;
}

function isSuccess(status: number | undefined): boolean {
  // A propstat without a status is read as found: lenient servers omit it.
  return status === undefined || (status >= 200 && status < 300);
}
