/**
 * The production command line ({@code QuotaflowCommand}, picocli): one class per command, the
 * shared options (cluster, LLM), the cluster preflight, exit codes and secret-safe errors. A
 * distribution with commands of its own adds them, and the variables they read, through
 * {@code QuotaflowCommand.execute}. Sits on top of core; core does not depend on it.
 */
package io.quotaflow.cli;
