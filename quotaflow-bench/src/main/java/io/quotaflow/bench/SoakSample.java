package io.quotaflow.bench;

import java.util.Map;

/**
 * One minute's figures of the soak scenario ({@link SoakBenchmark}).
 *
 * @param elapsedMs        since the first publish
 * @param published        tickets published so far
 * @param classified       results a {@code read_committed} consumer has seen
 * @param deadLettered     dead letters it has seen
 * @param heapAfterGcBytes the JVM's heap in use right after a full collection
 * @param rssBytes         the process's resident set ({@code VmRSS})
 * @param storeBytes       bytes per state store, every task's: its RocksDB files on disk and its memtables not yet flushed
 *                         ({@code cur-size-all-mem-tables}), so that a flush does not read as growth
 * @param storeKeys        RocksDB's estimate of the keys per state store ({@code estimate-num-keys}); empty when not reported
 * @param blockCacheBytes  what the stores' block cache holds ({@code block-cache-usage}; the cache every store shares under
 *                         {@code state.memory-mb}, memtables charged to it included)
 * @param blockCacheCapacityBytes that cache's capacity ({@code block-cache-capacity}), the largest any store reports
 * @param tickAvgMs        the stream threads' punctuation time, average over Kafka Streams' last sample window
 * @param tickMaxMs        the same, maximum
 * @param queueDepth       tickets waiting to be sent ({@code quotaflow_queue_depth}, every route and priority)
 * @param calls            calls the provider received so far
 * @param http429          429s so far
 */
public record SoakSample(long elapsedMs, long published, long classified, long deadLettered, long heapAfterGcBytes, long rssBytes,
                         Map<String, Long> storeBytes, Map<String, Long> storeKeys, long blockCacheBytes,
                         long blockCacheCapacityBytes, double tickAvgMs, double tickMaxMs,
                         long queueDepth, long calls, long http429) {

    public SoakSample {
        storeBytes = Map.copyOf(storeBytes);
        storeKeys = Map.copyOf(storeKeys);
    }

    /** Bytes on disk of every store together. */
    public long totalStoreBytes() {
        return storeBytes.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Estimated keys of every store together. */
    public long totalStoreKeys() {
        return storeKeys.values().stream().mapToLong(Long::longValue).sum();
    }
}
