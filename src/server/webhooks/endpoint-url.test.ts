import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { AppError } from '../lib/app-error.ts';
import { endpointUrlProblem, requireEndpointUrl } from './endpoint-url.ts';

const none = parseConfig({}).outboundAllowHosts;
const office = parseConfig({ OUTBOUND_ALLOW_HOSTS: 'crm-receiver.internal,10.0.0.5:8080' }).outboundAllowHosts;

describe('endpointUrlProblem', () => {
  it('takes any https URL', () => {
    expect(endpointUrlProblem('https://hooks.example.com/crm?x=1', none)).toBeUndefined();
    expect(endpointUrlProblem('https://10.0.0.5:8443/in', none)).toBeUndefined();
  });

  it('takes plain http only to a host (and port) OUTBOUND_ALLOW_HOSTS lists', () => {
    const plainHttp = 'Use an https:// URL (plain http:// only to a host listed in OUTBOUND_ALLOW_HOSTS).';
    expect(endpointUrlProblem('http://hooks.example.com/crm', none)).toBe(plainHttp);
    expect(endpointUrlProblem('http://crm-receiver.internal/in', office)).toBeUndefined();
    expect(endpointUrlProblem('http://10.0.0.5:8080/in', office)).toBeUndefined();
    expect(endpointUrlProblem('http://10.0.0.5:9090/in', office)).toBe(plainHttp);
  });

  it('refuses what is not a URL, another scheme, and a user name or password in it', () => {
    expect(endpointUrlProblem('hooks.example.com', none)).toBe('Enter a full URL, starting with https://');
    expect(endpointUrlProblem('ftp://hooks.example.com/', none)).toBe('Use an https:// URL.');
    expect(endpointUrlProblem('https://user:pw@hooks.example.com/', none)).toBe('Leave the user name and password out of the URL.');
    expect(endpointUrlProblem('https://user@hooks.example.com/', none)).toBe('Leave the user name and password out of the URL.');
  });
});

describe('requireEndpointUrl', () => {
  it('refuses with 400 on the url field', () => {
    expect(() => requireEndpointUrl('https://hooks.example.com/', none)).not.toThrow();
    try {
      requireEndpointUrl('ftp://hooks.example.com/', none);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect({ status: (error as AppError).status, fields: (error as AppError).fields }).toEqual({
        status: 400,
        fields: { url: 'Use an https:// URL.' },
      });
    }
  });
});
