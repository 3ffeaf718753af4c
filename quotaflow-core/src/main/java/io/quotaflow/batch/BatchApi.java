package io.quotaflow.batch;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The provider's Batch API, asynchronous: nothing blocks the caller, and a refusal completes the future
 * with {@link BatchApiClient.Refused}. {@link BatchApiClient} speaks it over HTTP.
 */
public interface BatchApi extends AutoCloseable {

    /** Uploads {@code jsonl} and creates a job of it with {@code metadata}; completes with the job as created. */
    CompletableFuture<BatchApiClient.Info> submit(byte[] jsonl, Map<String, String> metadata);

    /** The job {@code batchId} as the provider describes it now. */
    CompletableFuture<BatchApiClient.Info> status(String batchId);

    /**
     * Hands each line of file {@code fileId} to {@code each} as it is read (on the HTTP thread, in file
     * order; a line that is not one is skipped); completes when the file is read. None for a null id.
     */
    CompletableFuture<Void> lines(String fileId, Consumer<BatchLines.Line> each);

    /** The provider's most recent jobs, newest first, at most {@code maxPages} pages of them. */
    CompletableFuture<List<BatchApiClient.Info>> list(int maxPages);

    /** Asks the provider to cancel job {@code batchId}. */
    CompletableFuture<BatchApiClient.Info> cancel(String batchId);

    @Override
    default void close() {
    }
}
