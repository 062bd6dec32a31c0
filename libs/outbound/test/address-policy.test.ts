import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createOutboundClient, OutboundRefused, refusalFor, urlRefusal } from '../src/index.ts';

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
      // A name that resolves to loopback is refused after resolution, not only as a literal.
      await expect(prod.send(`http://localhost:${port}/`)).rejects.toThrow(/loopback/);
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
      await expect(client.send(`http://127.0.0.1:${port}/`)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await client.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
