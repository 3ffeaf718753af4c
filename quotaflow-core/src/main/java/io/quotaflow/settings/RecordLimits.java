package io.quotaflow.settings;

/**
 * Size bounds of every record quotaflow writes, so that none can exceed the producer's
 * {@code max.request.size} or a topic's {@code max.message.bytes} (both 1 MiB by default) and stop
 * the pipeline on {@code RecordTooLargeException}.
 *
 * @param maxValueBytes  largest record value written as it is (a ticket's original bytes on the retry and
 *                       dead-letter topics, the ticket inside the dispatch topic and the stores); a larger
 *                       input is carried reduced or, in a dead letter, truncated with its size and SHA-256
 * @param maxHeaderBytes most bytes of a producer's own headers kept on retries and dead letters
 * @param maxBatchBytes  most ticket bytes in one model call (a single larger ticket goes alone)
 */
public record RecordLimits(int maxValueBytes, int maxHeaderBytes, int maxBatchBytes) {

    public static final int DEFAULT_MAX_VALUE_BYTES = 960 * 1024;
    public static final int DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
    public static final int DEFAULT_MAX_BATCH_BYTES = 512 * 1024;
    /** Room left under {@code max.request.size} for the key, quotaflow's own headers and the batch overhead. */
    public static final int OVERHEAD_BYTES = 24 * 1024;

    public RecordLimits {
        QuotaSettings.require(maxValueBytes >= 16 * 1024, "records.max-value-bytes must be >= 16384");
        QuotaSettings.require(maxHeaderBytes >= 0 && maxHeaderBytes <= maxValueBytes / 4,
                "records.max-header-bytes must be in [0, records.max-value-bytes / 4]");
        QuotaSettings.require(maxBatchBytes >= 1024, "batch.max-bytes must be >= 1024");
    }

    public static RecordLimits ofDefaults() {
        return new RecordLimits(DEFAULT_MAX_VALUE_BYTES, DEFAULT_MAX_HEADER_BYTES, DEFAULT_MAX_BATCH_BYTES);
    }

    /** Largest record this configuration may write: value, producer headers and overhead. */
    public long maxRecordBytes() {
        return (long) maxValueBytes + maxHeaderBytes + OVERHEAD_BYTES;
    }

    /** Checks the bounds against the producer's {@code max.request.size}. */
    public RecordLimits checkAgainst(long maxRequestSize) {
        QuotaSettings.require(maxRecordBytes() <= maxRequestSize,
                "records.max-value-bytes + records.max-header-bytes + " + OVERHEAD_BYTES + " (" + maxRecordBytes()
                        + ") must not exceed the producer's max.request.size (" + maxRequestSize + ")");
        return this;
    }

    public RecordLimits withMaxValueBytes(int value) {
        return new RecordLimits(value, Math.min(maxHeaderBytes, value / 4), maxBatchBytes);
    }
}
