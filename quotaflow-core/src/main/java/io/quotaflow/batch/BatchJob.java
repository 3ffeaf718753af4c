package io.quotaflow.batch;

import java.util.List;
import java.util.Objects;

/**
 * A batch job as the dispatcher keeps it in its changelogged store, under its {@link #key}, from before
 * its upload until each of its calls is answered: so a restart, or another instance taking the scope
 * over, polls the same job, or finds it by its key among the provider's jobs when the provider accepted
 * it before its id was stored, and writes each ticket's result once.
 *
 * @param batchId     the provider's id of the job ({@code batch_...}); null while it is only an intent (being uploaded)
 * @param scope       the quota scope whose calls it holds
 * @param inputFileId the uploaded JSONL
 * @param submittedAt when it was submitted (epoch ms)
 * @param calls       its calls, each one line of the file
 * @param key         the job's key: its key in the store and its {@code metadata.quotaflow_job} at the provider;
 *                    null in a record written before keys (its store key is its batch id)
 */
public record BatchJob(String batchId, String scope, String inputFileId, long submittedAt, List<Call> calls, String key) {

    /**
     * What a record may take of the 1 MiB record limit: a job whose calls would take more is split
     * ({@link #recordBytes}), so that its changelog write is never refused.
     */
    public static final long RECORD_BUDGET = 768L * 1024;

    /** The fixed part of a record: its field names, ids and numbers, counted generously. */
    static final int RECORD_OVERHEAD = 256;

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

        /**
         * An upper bound of what this call takes in a stored record (CBOR: each field's name, each string
         * as its UTF-8 bytes and a header of at most 9 bytes, a number at most 9).
         */
        public long recordBytes() {
            long bytes = 48 + 9 + utf8(customId) + 9;
            for (String k : keys) {
                bytes += utf8(k) + 9;
            }
            for (String w : wireIds) {
                bytes += utf8(w) + 9;
            }
            return bytes;
        }
    }

    public BatchJob {
        Objects.requireNonNull(scope, "scope");
        calls = List.copyOf(calls);
    }

    /** A job the provider accepted before keys existed (its store key is its batch id). */
    public BatchJob(String batchId, String scope, String inputFileId, long submittedAt, List<Call> calls) {
        this(batchId, scope, inputFileId, submittedAt, calls, null);
    }

    /** The intent to submit {@code calls} under {@code key}: stored before the upload starts. */
    public static BatchJob intent(String key, String scope, long at, List<Call> calls) {
        return new BatchJob(null, scope, null, at, calls, Objects.requireNonNull(key, "key"));
    }

    /** This job, accepted by the provider as {@code id}. */
    public BatchJob accepted(String id) {
        return new BatchJob(Objects.requireNonNull(id, "id"), scope, inputFileId, submittedAt, calls, key);
    }

    /** Whether the provider's id of it is known: false for an intent. */
    public boolean isAccepted() {
        return batchId != null;
    }

    /** What its calls count against the enqueued-token limit. */
    public long tokens() {
        return calls.stream().mapToLong(Call::tokens).sum();
    }

    /** An upper bound of the bytes of this job's stored record. */
    public long recordBytes() {
        return RECORD_OVERHEAD + utf8(scope) + calls.stream().mapToLong(Call::recordBytes).sum();
    }

    /** UTF-8 length of {@code s} without encoding it (one per char, surrogate pairs 4 for the pair). */
    static long utf8(String s) {
        if (s == null) {
            return 0;
        }
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return n;
    }
}
