import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  createOutboundClient,
  OutboundRefused,
  outboundFailure,
  refusalFor,
  urlRefusal,
} from '../src/index.ts';

describe('address policy', () => {
  it('refuses private, link-local, unique-local and reserved addresses in every mode', () => {
    for (const ip of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      'fd00::1',
      'fe80::1',
      '0.0.0.0',
      '::ffff:10.0.0.1',
    ]) {
      expect(refusalFor(ip, 'development')).toBeDefined();
      expect(refusalFor(ip, 'production')).toBeDefined();
    }
  });

  it('unwraps IPv4-mapped, 6to4 and Teredo forms, and refuses ::/96, fec0::/10 and documentation ranges', () => {
    for (const [ip, why] of [
      ['2002:a00:1::1', '6to4 wrapping 10.0.0.1'],
      ['2002:7f00:1::1', '6to4 wrapping 127.0.0.1'],
      ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo, client 10.0.0.1'],
      ['2001:0:a00:1:8000:63bf:a247:27dd', 'Teredo, server 10.0.0.1'],
      ['::a00:1', 'IPv4-compatible ::/96'],
      ['::5db8:d822', 'IPv4-compatible ::/96 of a public address'],
      ['fec0::1', 'site-local fec0::/10'],
      ['2001:db8::1', 'documentation'],
      ['3fff::1', 'documentation (RFC 9637)'],
      ['192.0.2.1', 'documentation'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.9', 'documentation'],
      ['64:ff9b::a00:1', 'NAT64'],
      ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
      ['255.255.255.255', 'broadcast'],
    ]) {
      expect(refusalFor(ip, 'development'), why).toBeDefined();
      expect(refusalFor(ip, 'production'), why).toBeDefined();
    }
    // Wrapping a public address is fine: the policy judges what is reached.
    expect(refusalFor('2002:5db8:d822::1', 'production')).toBeUndefined();
    expect(refusalFor('2001:0:4136:e378:8000:63bf:a247:27dd', 'production')).toBeUndefined();
    expect(refusalFor('::ffff:93.184.216.34', 'production')).toBeUndefined();
  });

  it('allows ports 80 and 443 only in production mode', () => {
    expect(urlRefusal('https://partner.example:8443/hook', 'production')).toBe('must use port 80 or 443');
    expect(urlRefusal('http://partner.example:22/', 'production')).toBe('must use port 80 or 443');
    expect(urlRefusal('http://partner.example:443/hook', 'production')).toBeUndefined();
    expect(urlRefusal('https://partner.example:443/hook', 'production')).toBeUndefined();
    expect(urlRefusal('https://partner.example:8443/hook', 'development')).toBeUndefined();
  });

  it('allows loopback only in development mode, and public addresses always', () => {
    expect(refusalFor('127.0.0.1', 'development')).toBeUndefined();
    expect(refusalFor('::1', 'development')).toBeUndefined();
    expect(refusalFor('127.0.0.1', 'production')).toContain('loopback');
    expect(refusalFor('93.184.216.34', 'production')).toBeUndefined();
    expect(refusalFor('2606:2800:220:1::1', 'production')).toBeUndefined();
  });

  it('checks registered URLs by scheme, credentials and literal host', () => {
    expect(urlRefusal('https://partner.example/hook', 'production')).toBeUndefined();
    expect(urlRefusal('ftp://partner.example', 'production')).toBe('must be a valid http(s) URL');
    expect(urlRefusal('https://user:pw@partner.example', 'production')).toBe('must not carry credentials');
    expect(urlRefusal('http://localhost:8080/hook', 'production')).toBeDefined();
    expect(urlRefusal('http://localhost:8080/hook', 'development')).toBeUndefined();
    expect(urlRefusal('http://[::1]:8080/', 'production')).toBeDefined();
    expect(urlRefusal('http://169.254.169.254/latest/meta-data', 'development')).toBeDefined();
  });
});

describe('outbound client', () => {
  it('calls a loopback receiver in development mode and refuses it in production mode, after DNS', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const dev = createOutboundClient({ mode: 'development', timeoutMs: 2000 });
    const prod = createOutboundClient({ mode: 'production', timeoutMs: 2000 });
    try {
      expect((await dev.send(`http://127.0.0.1:${port}/`)).body).toBe('ok');
      expect((await dev.send(`http://localhost:${port}/`)).body).toBe('ok');
      await expect(prod.send(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(OutboundRefused);
      await expect(prod.send(`http://localhost:${port}/`)).rejects.toThrow(/port 80 or 443/);
      // A name that resolves to loopback is refused after resolution, not only as a literal.
      await expect(prod.send('http://localhost/')).rejects.toThrow(/loopback/);
    } finally {
      await dev.close();
      await prod.close();
      server.close();
    }
  });

  it('gives up on a receiver slower than the timeout', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const client = createOutboundClient({ mode: 'development', timeoutMs: 200 });
    try {
      const started = Date.now();
      const err = await client.send(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(outboundFailure(err)).toBe('timeout');
    } finally {
      await client.close();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('failure classes', () => {
  it('names a failed call by class, never by its raw error', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise((r) => closed.close(r));
    const plain = createServer((_req, res) => res.end('not tls'));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    const plainPort = (plain.address() as AddressInfo).port;
    const dev = createOutboundClient({ mode: 'development', timeoutMs: 2000 });
    const prod = createOutboundClient({ mode: 'production', timeoutMs: 2000 });
    const failureOf = (p: Promise<unknown>) => p.then(() => 'answered', outboundFailure);
    try {
      expect(await failureOf(dev.send(`http://127.0.0.1:${port}/`))).toBe('connection_refused');
      expect(await failureOf(dev.send(`https://127.0.0.1:${plainPort}/`))).toBe('tls_error');
      expect(await failureOf(dev.send('http://no-such-host.invalid/'))).toBe('dns_error');
      expect(await failureOf(prod.send('http://127.0.0.1/'))).toBe('address_refused');
      expect(await failureOf(prod.send('http://[2002:a00:1::1]/'))).toBe('address_refused');
    } finally {
      await dev.close();
      await prod.close();
      plain.close();
    }
  });
});
