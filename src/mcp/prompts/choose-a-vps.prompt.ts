import type { GetPromptResult } from '@modelcontextprotocol/server';
import { isISO31661Alpha2 } from 'class-validator';
import { z } from 'zod';
import { DEFAULT_CURRENCY } from '../../dataset/dataset-validator.js';
import type { ToolServices } from '../tool-definition.js';
import { describeFiltersTool } from '../tools/describe-filters.tool.js';
import { estimateMonthlyCostTool } from '../tools/estimate-monthly-cost.tool.js';
import { findEquivalentPlansTool } from '../tools/find-equivalent-plans.tool.js';
import { findVpsPlansTool } from '../tools/find-vps-plans.tool.js';
import { recommendVpsForWorkloadTool } from '../tools/recommend-vps-for-workload.tool.js';
import { PromptArgumentError, type PromptDefinition } from './prompt-definition.js';

/**
 * A tool's argument names as a typed record, read from its input schema: the prompt text names them
 * through this, so renaming an argument fails the build instead of leaving the text behind.
 */
function argsOf<Input extends z.ZodRawShape>(tool: { inputSchema: Input }): { [K in keyof Input & string]: K } {
  return Object.fromEntries(Object.keys(tool.inputSchema).map((k) => [k, k])) as never;
}

const recommend = { name: recommendVpsForWorkloadTool.name, arg: argsOf(recommendVpsForWorkloadTool) };
const find = { name: findVpsPlansTool.name, arg: argsOf(findVpsPlansTool) };
const estimate = { name: estimateMonthlyCostTool.name, arg: argsOf(estimateMonthlyCostTool) };
const equivalents = { name: findEquivalentPlansTool.name, arg: argsOf(findEquivalentPlansTool) };
const filters = { name: describeFiltersTool.name };

/** An amount with an optional ISO 4217 code: "20", "20 EUR", "12.50 gbp". */
const BUDGET = /^(\d{1,7}(?:\.\d{1,2})?)\s*([A-Za-z]{3})?$/;
/** How many candidates the walk-through bills, and how many it answers with. */
const CANDIDATES = 5;
const SHORT_LIST = 3;
const HORIZON_MONTHS = 12;

const argsSchema = {
  workload: z
    .string({
      error: 'Pass "workload": what will run, e.g. "WordPress shop" or a use-case slug such as "game-server".',
    })
    .trim()
    .min(1, {
      error: 'Pass "workload": what will run, e.g. "WordPress shop" or a use-case slug such as "game-server".',
    })
    .max(200, { error: 'Keep "workload" under 200 characters: a few words are enough.' })
    .describe(
      'What will run on the server, in words ("Minecraft for ten friends") or a use-case slug ("game-server").',
    ),
  monthlyBudget: z
    .string()
    .trim()
    .regex(BUDGET, {
      error: 'monthlyBudget must be an amount with an optional ISO 4217 currency, e.g. "20", "20 EUR" or "12.50 GBP".',
    })
    .refine((v) => Number(BUDGET.exec(v)?.[1] ?? 1) > 0, { error: 'monthlyBudget must be more than 0.' })
    .optional()
    .describe(`Most the user will pay a month, excluding VAT, e.g. "20 EUR" (${DEFAULT_CURRENCY} without a code).`),
  country: z
    .string()
    .trim()
    .refine((v) => isISO31661Alpha2(v.toUpperCase()), {
      error: 'country must be an ISO 3166-1 alpha-2 code such as "DE", "GB" or "US" (it decides VAT or sales tax).',
    })
    .optional()
    .describe('The customer\'s country, ISO 3166-1 alpha-2 (e.g. "DE"): it decides VAT or sales tax on the bill.'),
  trafficTb: z
    .string()
    .trim()
    .regex(/^\d{1,5}(?:\.\d{1,3})?$/, {
      error: 'trafficTb must be a number of TB a month, 0 or more, e.g. "2" or "0.5".',
    })
    .optional()
    .describe('Expected outbound traffic in TB a month, e.g. "2": traffic beyond a plan\'s allowance is billed.'),
};

type Args = { workload: string; monthlyBudget?: string; country?: string; trafficTb?: string };

/** The walk-through, with the user's answers filled in and each missing one turned into a question. */
function walkThrough(args: Args, currencies: readonly string[]): string {
  const [, amount, code] = args.monthlyBudget ? BUDGET.exec(args.monthlyBudget)! : [];
  const currency = (code ?? DEFAULT_CURRENCY).toUpperCase();
  if (!currencies.includes(currency))
    throw new PromptArgumentError(
      'monthlyBudget',
      `No exchange rate for "${currency}". Use one of: ${currencies.join(', ')}.`,
    );
  const country = args.country?.toUpperCase();
  const json = (value: unknown) => JSON.stringify(value);
  const budgetArgs = amount ? `, \`${find.arg.maxMonthlyPrice}\`: ${Number(amount)}` : '';
  const billArgs = [
    `\`${estimate.arg.providerId}\``,
    `\`${estimate.arg.planName}\``,
    `\`${estimate.arg.country}\`: ${country ? json(country) : "the user's country"}`,
    `\`${estimate.arg.trafficTb}\`: ${args.trafficTb === undefined ? 'the expected traffic' : Number(args.trafficTb)}`,
    `\`${estimate.arg.currency}\`: ${json(currency)}`,
    `\`${estimate.arg.horizonMonths}\`: ${HORIZON_MONTHS} (24 or 36 when a price is promotional, so the renewal shows)`,
    `\`${estimate.arg.backups}\`: true if the workload keeps data worth keeping`,
  ].join(', ');
  return [
    'Help me choose a VPS with the vpsapi tools, then answer with a short list and what each will really cost.',
    '',
    'What I know:',
    `- Workload: ${args.workload}`,
    `- Monthly budget: ${amount ? `${Number(amount)} ${currency}, excluding VAT` : 'not given: ask me for one, or go on without a ceiling and say so'}`,
    `- My country: ${country ?? 'not given: ask me before estimating bills, since it decides VAT or sales tax'}`,
    `- Expected outbound traffic: ${args.trafficTb === undefined ? 'not given: ask me, or estimate with 0 and say that traffic beyond the allowance is not counted' : `${Number(args.trafficTb)} TB a month`}`,
    '',
    'Steps:',
    `1. Size the workload: call \`${recommend.name}\` with \`${recommend.arg.workload}\`: ${json(args.workload)}. Note its recommendedSpec and each provider's cheapestMatchingPlan.`,
    `2. Find candidates: call \`${find.name}\` with \`${find.arg.minVcpus}\`, \`${find.arg.minRamGb}\`, \`${find.arg.minStorageGb}\` and \`${find.arg.minTransferTb}\` from the recommended spec (its bandwidthTb, or my expected traffic if that is more), \`${find.arg.currency}\`: ${json(currency)}${budgetArgs}. ` +
      `Add \`${find.arg.country}\` or \`${find.arg.location}\` only if I want the server in a given place. If plans is empty, closestMatches says which constraint to relax and by how much: tell me, and stop to ask.`,
    `3. Bill them: for the ${CANDIDATES} cheapest candidates, call \`${estimate.name}\` with ${billArgs}.`,
    `4. Check for the same for less: call \`${equivalents.name}\` with the best candidate's \`${equivalents.arg.providerId}\` and \`${equivalents.arg.planName}\` and \`${equivalents.arg.currency}\`: ${json(currency)}; bill any cheaper one as in step 3, and name every figure in its lowerThanReference.`,
    `If you are unsure of a value (a city, a country, a currency, a use-case slug), call \`${filters.name}\` first instead of guessing.`,
    '',
    `Answer with at most ${SHORT_LIST} plans, cheapest total first: provider and plan, vCPUs, RAM, disk and traffic allowance, the monthly bill of each period (promotional, then renewal) and the total over the horizon in ${currency}, ` +
      'which items are unknown (known: false) and why, and one line on why it suits the workload. Never fill in an unknown figure; say it is unknown.',
  ].join('\n');
}

/** choose_a_vps: workload, budget, country and traffic to a short list with estimated bills. */
export const chooseAVpsPrompt: PromptDefinition<typeof argsSchema> = {
  name: 'choose_a_vps',
  title: 'Choose a VPS',
  description:
    `Walks you through choosing a VPS: sizes the workload (${recommend.name}), finds plans within the budget (${find.name}), bills the candidates with VAT, IPv4, backups and traffic (${estimate.name}), ` +
    `checks for the same for less (${equivalents.name}) and answers with a short list and estimated bills. Only workload is required; a missing budget, country or traffic becomes a question to the user.`,
  argsSchema,
  build: (args, services: ToolServices): GetPromptResult => ({
    description: `Choosing a VPS for: ${args.workload}`,
    messages: [
      { role: 'user', content: { type: 'text', text: walkThrough(args, services.filters.describe().currencies) } },
    ],
  }),
};
