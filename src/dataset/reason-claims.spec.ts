import { claimsText, meetsClaims, reasonClaims } from './reason-claims.js';

describe('reasonClaims', () => {
  it.each([
    ['Dedicated vCPU plans with local NVMe give more RAM per euro', { cpuType: 'dedicated', disk: 'NVMe' }],
    ['Dedicated CPU plans with predictable pricing give steady query times', { cpuType: 'dedicated' }],
    ['reserve dedicated cores for the instance', { cpuType: 'dedicated' }],
    ['accepting slower token rates on shared cores', { cpuType: 'shared' }],
    ['Shared plans with 4 GB of RAM cost little', { cpuType: 'shared' }],
    ['High Performance plans add NVMe disks for a dollar or two more', { disk: 'NVMe' }],
    ['MaxIOPS block storage delivers low-latency writes', { disk: 'MaxIOPS' }],
  ])('reads what %j says about its plans', (reason, claims) => {
    expect(reasonClaims(reason)).toEqual(claims);
  });

  it.each([
    ['Strong price-to-performance on shared vCPU plans, dedicated vCPU plans for when shared cores are too noisy'],
    ['Shared x86 and Ampere ARM plans give a lot of RAM, and dedicated vCPU plans add steady cores'],
    ['about twice the NVMe size as plain SSD at the same price'],
    ['Hourly billing with a monthly cap and a solid API'],
    ['the data is shared with nobody, and a dedicated team answers'],
  ])('claims nothing where %j names both kinds or none', (reason) => {
    expect(reasonClaims(reason)).toEqual({});
  });

  it('holds a plan to each claim: its CPU type, and the disk technology named in its disk text', () => {
    const claims = reasonClaims('Dedicated vCPU plans with local NVMe');
    expect(meetsClaims({ cpuType: 'dedicated', storage: '80GB NVMe' }, claims)).toBe(true);
    expect(meetsClaims({ cpuType: 'shared', storage: '80GB NVMe' }, claims)).toBe(false);
    expect(meetsClaims({ cpuType: 'dedicated', storage: '80GB SSD' }, claims)).toBe(false);
    expect(meetsClaims({ cpuType: 'shared', storage: '25GB MaxIOPS SSD' }, reasonClaims('MaxIOPS storage'))).toBe(true);
    expect(meetsClaims({ cpuType: 'shared', storage: '25GB SSD' }, reasonClaims('MaxIOPS storage'))).toBe(false);
    expect(meetsClaims({ cpuType: 'shared', storage: '25GB SSD' }, {})).toBe(true);
  });

  it('says the claims in words', () => {
    expect(claimsText({ cpuType: 'dedicated', disk: 'NVMe' })).toBe('dedicated vCPUs and an NVMe disk');
    expect(claimsText({ disk: 'MaxIOPS' })).toBe('a MaxIOPS disk');
    expect(claimsText({})).toBe('');
  });
});
