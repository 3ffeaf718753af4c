package io.quotaflow.batch;

import java.util.concurrent.CompletableFuture;

/**
 * The provider's Batch API, asynchronous: nothing blocks the caller, and a refusal completes the future
 * with {@link BatchApiClient.Refused}. {@link BatchApiClient} speaks it over HTTP.
 */
public interface BatchApi extends AutoCloseable {

    /** Uploads {@code jsonl} and creates a job of it; completes with the job as created. */
    CompletableFuture<BatchApiClient.Info> submit(byte[] jsonl);

    /** The job {@code batchId} as the provider describes it now. */
    CompletableFuture<BatchApiClient.Info> status(String batchId);

    /** The content of file {@code fileId}; empty for none. */
    CompletableFuture<String> content(String fileId);

    @Override
    default void close() {
    }
}
