import { publicUrlMismatch } from './public-url-check';

describe(publicUrlMismatch.name, () => {
  // This machine, as the check sees it: loopback, a host name and one interface address.
  const names = new Set(['localhost', '127.0.0.1', '::1', '[::1]', 'build-01', '10.0.0.5']);

  it('is silent when PUBLIC_BASE_URL names the listener: the default, loopback names, this machine on every interface', () => {
    expect(publicUrlMismatch('http://localhost:4106', '0.0.0.0', 4106, names)).toBeUndefined();
    expect(publicUrlMismatch('http://localhost:4106', '127.0.0.1', 4106, names)).toBeUndefined();
    expect(publicUrlMismatch('http://127.0.0.1:4106/vps', 'localhost', 4106, names)).toBeUndefined();
    expect(publicUrlMismatch('http://build-01:4106', '::', 4106, names)).toBeUndefined();
    expect(publicUrlMismatch('http://10.0.0.5', '0.0.0.0', 80, names)).toBeUndefined();
    expect(publicUrlMismatch('https://10.0.0.5', '0.0.0.0', 443, names)).toBeUndefined();
  });

  it('names the other port when PUBLIC_BASE_URL was left at another port', () => {
    expect(publicUrlMismatch('http://localhost:3000', '0.0.0.0', 4106, names)).toMatch(
      /^PUBLIC_BASE_URL http:\/\/localhost:3000 names port 3000, not 4106: absolute URLs in responses point there\./,
    );
    expect(publicUrlMismatch('https://localhost', '0.0.0.0', 4106, names)).toMatch(/names port 443, not 4106:/);
  });

  it('names the other host, and says when that is right', () => {
    const message = publicUrlMismatch('https://vpsapi.example.com', '0.0.0.0', 3000, names);
    expect(message).toMatch(/names port 443, not 3000 and host vpsapi\.example\.com, not this machine:/);
    expect(message).toMatch(
      /Right behind a proxy or ingress that serves that address; for a local run, unset PUBLIC_BASE_URL \(it follows PORT\)\./,
    );
    expect(publicUrlMismatch('http://10.0.0.5:3000', '127.0.0.1', 3000, names)).toMatch(
      /names host 10\.0\.0\.5, not 127\.0\.0\.1:/,
    );
  });
});
