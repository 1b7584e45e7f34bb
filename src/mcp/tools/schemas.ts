import { z } from 'zod';

/** Output shapes shared by several tools. */
export const planSchema = z.object({
  name: z.string(),
  price: z.number().describe('Monthly price excluding VAT, in `currency`.'),
  currency: z.string().describe('ISO 4217 code the plan is billed in.'),
  cpu: z.string(),
  ram: z.string(),
  storage: z.string(),
  bandwidth: z.string(),
  cpuType: z.enum(['shared', 'dedicated']),
});

export const locationSchema = z.object({ city: z.string(), country: z.string(), region: z.string() });

export const specSchema = z.object({
  vcpus: z.number(),
  ramGb: z.number(),
  storageGb: z.number(),
  notes: z.string().optional(),
});
