/**
 * The provider's Batch API (docs/design.md, "Batch routes"): the JSONL of a batch job's requests and
 * the reading of its output and error files ({@link io.quotaflow.batch.BatchLines}), the HTTP calls
 * that upload, create, poll and download ({@link io.quotaflow.batch.BatchApiClient}), a job's provider
 * status ({@link io.quotaflow.batch.BatchStatus}) and what the dispatcher keeps of a submitted job
 * ({@link io.quotaflow.batch.BatchJob}). The dispatcher drives them from its punctuator and applies
 * what comes back on the stream thread.
 */
package io.quotaflow.batch;
