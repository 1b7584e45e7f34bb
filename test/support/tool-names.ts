/** The tools the README promises, in name order: written here rather than read from the code. */
export const TOOL_NAMES = [
  'describe_filters',
  'estimate_monthly_cost',
  'find_equivalent_plans',
  'find_vps_plans',
  'get_dataset_changes',
  'get_guide',
  'get_vps_provider',
  'list_vps_providers',
  'recommend_vps_for_workload',
  'search_guides',
];
