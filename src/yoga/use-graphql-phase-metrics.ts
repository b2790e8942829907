// GraphQL's phase durations as Prometheus series (metrics on: src/observability/metrics.ts), a Yoga plugin.
import { createHistogram, usePrometheus } from "@graphql-yoga/plugin-prometheus";
import { registry } from "../observability/metrics";

/** A GraphQL phase's histogram, labelled by operation type only (operation names are the client's choice). */
const phase = <P extends "parse" | "validate" | "execute">(name: P) =>
  createHistogram<P, "operation_type">({
    registry,
    histogram: { name: `prs_graphql_${name}_duration_seconds`, help: `GraphQL ${name} phase by operation type`, labelNames: ["operation_type"] },
    fillLabelsFn: (params) => ({ operation_type: params.operationType ?? "unknown" }),
    phases: [name],
  });

/**
 * Yoga's Prometheus plugin, for the GraphQL phases only: parse, validate and execute durations. Its other series are
 * left out (the HTTP ones are prs_http_request_duration_seconds's) and it serves no endpoint of its own.
 */
export const useGraphQLPhaseMetrics = () =>
  usePrometheus({
    registry,
    endpoint: false,
    metrics: {
      graphql_envelop_phase_parse: phase("parse"),
      graphql_envelop_phase_validate: phase("validate"),
      graphql_envelop_phase_execute: phase("execute"),
      graphql_envelop_phase_context: false,
      graphql_envelop_phase_subscribe: false,
      graphql_envelop_request: false,
      graphql_envelop_request_duration: false,
      graphql_envelop_request_time_summary: false,
      graphql_envelop_error_result: false,
      graphql_envelop_deprecated_field: false,
      graphql_envelop_schema_change: false,
      graphql_envelop_execute_resolver: false,
      graphql_yoga_http_duration: false,
    },
  });
