/**
 * Traces (docs/operations.md, "Traces"): a ticket's spans from its producer's {@code traceparent} through intake,
 * the wait for capacity and its model call, to its result, in OpenTelemetry's GenAI conventions. {@link
 * io.quotaflow.tracing.Tracing#NOOP} when no exporter is configured.
 */
package io.quotaflow.tracing;
