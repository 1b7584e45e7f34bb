import type { UseCaseRecord } from '../dataset/dto/use-case.dto.js';
import { WorkloadMatcher, wordsOf } from './workload-matcher.js';

const useCase = (slug: string, title: string, tags: string[]) => ({ slug, title, tags }) as unknown as UseCaseRecord;
const USE_CASES = [
  useCase('game-server', 'Game server hosting', ['minecraft', 'valheim', 'rust server']),
  useCase('kubernetes-node', 'Kubernetes node', ['kubernetes', 'k8s', 'docker compose']),
  useCase('web-app', 'Web application hosting', ['node.js', 'django', 'api hosting']),
  useCase('database', 'Database server', ['postgresql', 'mysql', 'docker compose']),
];

describe(WorkloadMatcher.name, () => {
  const matcher = new WorkloadMatcher(
    USE_CASES,
    () => [],
    (text) => (text === 'dtabse' ? ['database'] : []),
  );
  const matched = (text: string) => {
    const found = matcher.match(text);
    if ('miss' in found) throw new Error(`no match for ${text}: ${found.miss.why}`);
    return found;
  };

  it('reads words with case, accents and punctuation folded', () => {
    expect(wordsOf('Node.js  API, Café')).toEqual(['node', 'js', 'api', 'cafe']);
  });

  it('matches a slug or a title exactly, with confidence 1', () => {
    expect(matched('game-server').match).toEqual({
      kind: 'exact',
      confidence: 1,
      matchedUseCase: 'game-server',
      matchedOn: ['game-server'],
    });
    expect(matched('GAME SERVER HOSTING').match).toMatchObject({
      kind: 'exact',
      confidence: 1,
      matchedUseCase: 'game-server',
    });
  });

  it('matches a name found in the text: 0.9 when it is the whole text, 0.8 when it covers every content word, 0.7 otherwise', () => {
    expect(matched('k8s').match).toEqual({
      kind: 'alias',
      confidence: 0.9,
      matchedUseCase: 'kubernetes-node',
      matchedOn: ['k8s'],
    });
    expect(matched('a minecraft server').match).toMatchObject({
      kind: 'alias',
      confidence: 0.8,
      matchedUseCase: 'game-server',
    });
    expect(matched('minecraft for my friends').match).toMatchObject({
      kind: 'alias',
      confidence: 0.7,
      matchedUseCase: 'game-server',
      matchedOn: ['minecraft'],
    });
  });

  it("is 0.15 less sure when another use case's name is in the text too, and lists it first among the alternatives", () => {
    const found = matched('docker compose stack');
    expect(found.match).toMatchObject({ kind: 'alias', confidence: 0.55 });
    expect(found.alternatives[0]).toBe(found.match.matchedUseCase === 'database' ? 'kubernetes-node' : 'database');
  });

  it('prefers the use case whose names cover more of the text', () => {
    expect(matched('postgresql in docker compose').match).toMatchObject({
      matchedUseCase: 'database',
      matchedOn: ['postgresql', 'docker compose'],
    });
  });

  it('matches by words of the names, whole, prefix or typo, when one is specific to the use case', () => {
    expect(matched('postgres').match).toEqual({
      kind: 'words',
      confidence: 0.85,
      matchedUseCase: 'database',
      matchedOn: ['postgres'],
    });
    expect(matched('postgres for my startup').match).toMatchObject({ kind: 'words', confidence: 0.63 });
    expect(matched('kubernets').match).toMatchObject({ kind: 'words', matchedUseCase: 'kubernetes-node' });
  });

  it('refuses a text whose only matching word several use cases share, naming it', () => {
    expect(matcher.match('blockchain validator node')).toEqual({
      miss: {
        why: '"node" is a word of several use cases (kubernetes-node, web-app), and no other word names one',
        closest: [],
      },
    });
  });

  it('refuses a text with no word that names a use case, with the closest by typo-tolerant search', () => {
    expect(matcher.match('dtabse')).toEqual({
      miss: { why: 'none of its words names a use case', closest: ['database'] },
    });
    expect(matcher.match('a server for my stuff')).toEqual({
      miss: { why: 'it has no word that says what will run', closest: [] },
    });
  });
});

describe(`${WorkloadMatcher.name} on descriptions`, () => {
  const described = (slug: string, title: string, description: string) =>
    ({ slug, title, tags: [], description }) as unknown as UseCaseRecord;
  const matcher = new WorkloadMatcher(
    [
      described(
        'web-app',
        'Web application hosting',
        'An app runtime behind a proxy; latency to users decides the region.',
      ),
      described('self-hosted-apps', 'Self-hosted apps', 'Nextcloud and similar apps on one small server.'),
      described('static-site', 'Static site', 'A small site of plain files.'),
    ],
    () => [],
    () => [],
  );

  it('matches a text no name matches on a word only one description has, with low confidence', () => {
    const found = matcher.match('small Mastodon instance for about 500 users');
    expect('match' in found && found.match).toEqual({
      kind: 'description',
      // Content words "mastodon" and "users" ("small", "instance" say nothing of the workload); "users" is
      // in web-app's description alone: 0.3 + 0.3 * 1 / 2.
      confidence: 0.45,
      matchedUseCase: 'web-app',
      matchedOn: ['users'],
    });
  });

  it('still refuses a text whose words every description shares or none has', () => {
    expect('miss' in matcher.match('small blockchain validator')).toBe(true);
  });
});
