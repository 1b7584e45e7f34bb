import { describeFiltersTool } from './describe-filters.tool.js';
import { estimateMonthlyCostTool } from './estimate-monthly-cost.tool.js';
import { findEquivalentPlansTool } from './find-equivalent-plans.tool.js';
import { findVpsPlansTool } from './find-vps-plans.tool.js';
import { getDatasetChangesTool } from './get-dataset-changes.tool.js';
import { getGuideTool } from './get-guide.tool.js';
import { getVpsProviderTool } from './get-vps-provider.tool.js';
import { listVpsProvidersTool } from './list-vps-providers.tool.js';
import { recommendVpsForWorkloadTool } from './recommend-vps-for-workload.tool.js';
import { searchGuidesTool } from './search-guides.tool.js';

/** Every tool, in the order tools/list shows them. */
export const TOOLS = [
  listVpsProvidersTool,
  getVpsProviderTool,
  findVpsPlansTool,
  recommendVpsForWorkloadTool,
  searchGuidesTool,
  getGuideTool,
  getDatasetChangesTool,
  estimateMonthlyCostTool,
  findEquivalentPlansTool,
  describeFiltersTool,
] as const;
