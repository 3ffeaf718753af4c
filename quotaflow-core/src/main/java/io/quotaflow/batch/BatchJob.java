package io.quotaflow.batch;

import java.util.List;
import java.util.Objects;

/**
 * A batch job the provider accepted, as the dispatcher keeps it in its changelogged store until each
 * of its calls is answered: so a restart, or another instance taking the scope over, polls the same job
 * and writes each ticket's result once.
 *
 * @param batchId     the provider's id of the job ({@code batch_...})
 * @param scope       the quota scope whose calls it holds
 * @param inputFileId the uploaded JSONL
 * @param submittedAt when it was created (epoch ms)
 * @param calls       its calls, each one line of the file
 */
public record BatchJob(String batchId, String scope, String inputFileId, long submittedAt, List<Call> calls) {

    /**
     * One call of the job: its line's {@code custom_id} (the call's id in the in-flight store), the ticket
     * keys it asks about and their ids in the request, in the same order.
     *
     * @param tokens what it counts against the enqueued-token limit (prompt + {@code max_tokens})
     */
    public record Call(String customId, List<String> keys, List<String> wireIds, long tokens) {

        public Call {
            Objects.requireNonNull(customId, "customId");
            keys = List.copyOf(keys);
            wireIds = List.copyOf(wireIds);
        }
    }

    public BatchJob {
        Objects.requireNonNull(batchId, "batchId");
        Objects.requireNonNull(scope, "scope");
        calls = List.copyOf(calls);
    }

    /** What its calls count against the enqueued-token limit. */
    public long tokens() {
        return calls.stream().mapToLong(Call::tokens).sum();
    }
}
