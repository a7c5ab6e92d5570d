import { describe, expect, it } from 'vitest';
import { CALDAV, DAV, hrefsOf, parseXml, prop, readMultistatus, XmlError } from './caldav-xml.ts';

describe('parseXml', () => {
  it('resolves prefixes, default namespaces and their scopes to namespaces', () => {
    const root = parseXml('<a:x xmlns:a="urn:a" xmlns="urn:d"><y/><a:y xmlns:a="urn:b"/><z xmlns=""/></a:x>');
    expect([root.ns, root.name]).toEqual(['urn:a', 'x']);
    expect(root.children.map((c) => [c.ns, c.name])).toEqual([
      ['urn:d', 'y'],
      ['urn:b', 'y'],
      ['', 'z'],
    ]);
  });

  it('reads CDATA, the predefined entities and character references, and skips comments and declarations', () => {
    const root = parseXml(
      '<?xml version="1.0"?>\n<!DOCTYPE x>\n<!-- hi --><x>a &lt;b&gt; &amp; &#233;&#x1F600; <![CDATA[<raw> &amp;]]> &unknown;</x>',
    );
    expect(root.text).toBe('a <b> & é😀 <raw> &amp; &unknown;');
  });

  it('refuses what is not well-formed, an undeclared prefix and a DOCTYPE that declares entities', () => {
    for (const text of ['<x><y></x>', '<x>', '<a:x/>', 'text', '<x/><y/>', '<!DOCTYPE x [<!ENTITY e "boom">]><x>&e;</x>', '<x a="1></x>']) {
      expect(() => parseXml(text), text).toThrow(XmlError);
    }
  });
});

describe('readMultistatus', () => {
  it('keeps the properties of 2xx propstats only, whatever the prefixes', () => {
    const [response] = readMultistatus(
      `<multistatus xmlns="DAV:"><response><href> /cal/ </href>
        <propstat><prop><displayname>Work</displayname><C:calendar-home-set xmlns:C="${CALDAV}"><href>/home/</href></C:calendar-home-set></prop><status>HTTP/1.1 200 OK</status></propstat>
        <propstat><prop><getetag/></prop><status>HTTP/1.1 404 Not Found</status></propstat>
      </response></multistatus>`,
    );
    expect(response!.href).toBe('/cal/');
    expect(prop(response!, DAV, 'displayname')?.text).toBe('Work');
    expect(prop(response!, DAV, 'getetag')).toBeUndefined();
    expect(hrefsOf(prop(response!, CALDAV, 'calendar-home-set'))).toEqual(['/home/']);
  });

  it('refuses a document that is not a DAV multistatus', () => {
    expect(() => readMultistatus('<multistatus/>')).toThrow(XmlError);
    expect(() => readMultistatus('<html><body>Hello</body></html>')).toThrow(XmlError);
  });
});
