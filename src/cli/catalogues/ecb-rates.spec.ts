import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CatalogueClient } from './catalogue-client.js';
import { CatalogueFormatError } from './catalogue.js';
import { ECB_DAILY_PATH, readEcbRates } from './ecb-rates.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';

const FIXTURES = 'test/fixtures/catalogues';

describe(readEcbRates.name, () => {
  let server: ReplayServer;
  let xml: string;
  const client = () => new CatalogueClient(server.baseUrlOf('ecb'), { baseDelayMs: 1 });
  const serve = (body: string) =>
    server.inject({ provider: 'ecb', path: ECB_DAILY_PATH, kind: 'body', body, times: 1 });

  beforeAll(async () => {
    server = await startReplayServer(FIXTURES, ['ecb']);
    xml = await readFile(join(FIXTURES, 'ecb', 'eurofxref-daily.xml'), 'utf8');
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads the day and every rate the recorded document lists, with the euro itself at 1', async () => {
    const listed = [...xml.matchAll(/currency='([A-Z]{3})' rate='([\d.]+)'/g)].map(
      ([, currency, rate]) => [currency, Number(rate)] as const,
    );
    const day = /time='([\d-]+)'/.exec(xml)![1];
    const reading = await readEcbRates(client());
    expect(reading.date).toBe(day);
    expect(reading.rates).toEqual({ EUR: 1, ...Object.fromEntries(listed) });
    expect(listed.length).toBeGreaterThan(20);
  });

  it('asks for the daily document on the path the ECB publishes it at', async () => {
    await readEcbRates(client());
    expect(server.served.at(-1)).toBe(`ecb ${ECB_DAILY_PATH}`);
  });

  it('refuses a day without a rate the dataset needs', async () => {
    serve(xml.replace(/\s*<Cube currency='GBP'[^>]*\/>/, ''));
    await expect(readEcbRates(client())).rejects.toThrow('has no rate for GBP');
    serve(xml);
    await expect(readEcbRates(client(), ['USD', 'XTS'])).rejects.toThrow('has no rate for XTS');
  });

  it('refuses rates written with a decimal comma, as in copies someone reformatted', async () => {
    serve(xml.replace(/rate='(\d+)\.(\d+)'/, "rate='$1,$2'"));
    await expect(readEcbRates(client())).rejects.toThrow(/USD has rate "\d+,\d+", not a positive decimal number/);
  });

  it('throws a CatalogueFormatError for an answer that is not the reference-rate document', async () => {
    serve('{}');
    await expect(readEcbRates(client())).rejects.toThrow(CatalogueFormatError);
    serve('<html><body>maintenance</body></html>');
    await expect(readEcbRates(client())).rejects.toThrow('no single <Cube time="…"> day');
    serve(xml.replace(/time='[\d-]+'/, "time='yesterday'"));
    await expect(readEcbRates(client())).rejects.toThrow('is not a date');
    serve(xml.replace(/<Cube currency=[^>]*\/>/g, ''));
    await expect(readEcbRates(client())).rejects.toThrow('lists no rates');
  });

  it('refuses a rate of zero, however it is written', async () => {
    for (const zero of ['0', '0.0000', '00.0']) {
      serve(xml.replace(/currency='USD' rate='[\d.]+'/, `currency='USD' rate='${zero}'`));
      await expect(readEcbRates(client())).rejects.toThrow(`USD has rate "${zero}", not a positive decimal number`);
    }
  });

  it('refuses a document with a DTD, so no entity it declares can set a rate', async () => {
    const withEntity = xml
      .replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE e [<!ENTITY r "0.0000001">]>',
      )
      .replace(/currency='USD' rate='[\d.]+'/, "currency='USD' rate='&r;'");
    serve(withEntity);
    await expect(readEcbRates(client())).rejects.toThrow('declares a DTD');
    serve(
      xml.replace(
        '<gesmes:Envelope',
        '<!DOCTYPE gesmes:Envelope SYSTEM "http://169.254.169.254/x.dtd">\n<gesmes:Envelope',
      ),
    );
    await expect(readEcbRates(client())).rejects.toThrow(CatalogueFormatError);
  });
});
