// Jest global setup: installs the Debian packages the suites need when they are missing, so that
// `npm test` alone works on a fresh machine (root, Debian registry reachable). The services themselves
// are started and stopped by the suites on free loopback ports.
const { execFileSync, spawnSync } = require('node:child_process');

const PACKAGES = [
  { name: 'redis-server', binary: 'redis-server' },
  { name: 'openssl', binary: 'openssl' },
  { name: 'chromium', binary: 'chromium' },
  { name: 'nginx', binary: 'nginx' },
];

function has(binary) {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

module.exports = async function globalSetup() {
  const missing = PACKAGES.filter((p) => !has(p.binary)).map((p) => p.name);
  if (missing.length === 0) return;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error(`The tests need these Debian packages: ${missing.join(' ')}. Install them (apt-get install ${missing.join(' ')}) or run as root.`);
  }
  console.log(`\nInstalling test dependencies: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
  for (const p of PACKAGES) if (!has(p.binary)) throw new Error(`${p.name} did not install`);
};
