package io.quotaflow.state;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.CompactionOptionsUniversal;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds what the RocksDB stores take: memory, together, and disk, each store.
 *
 * <p><b>Memory.</b> The off-heap memory of every RocksDB store of one instance together ({@code state.memory-mb}):
 * one block cache shared by all of them, which also holds their index and filter blocks and is charged
 * for their memtables (a {@link WriteBufferManager} over the same cache). This is the configuration
 * Kafka Streams' memory-management guide gives for a bound; without it each store takes up to a
 * 50 MiB block cache of its own and three 16 MiB memtables, so memory grows with the number of
 * tasks and stores (a dozen stores a task here) rather than with the data, and a store's deletions (an
 * expired status, a finished ticket) wait in large memtables and level-0 files for a long time before
 * a compaction drops them.
 *
 * <p>A quarter of the bound goes to memtables, each store's at most {@link #MEMTABLE_BYTES} and two at a
 * time, so that a store written slowly still flushes, and compacts away what it deleted, within
 * minutes. The cache is not strict: RocksDB may exceed it briefly rather than fail a read or a write.
 * Most of quotaflow's stores hold a few MiB of live data (a scope's ledger, statuses and cache
 * entries kept for their retention), so a memtable of Kafka Streams' 16 MiB, or even 4 MiB, is more
 * than the store it buffers: a store's size then saws by the memtable's size however steady its
 * data (docs/benchmark.md, "Soak", measures {@value #MEMTABLE_BYTES} bytes against larger memtables).
 *
 * <p>The cache and the write buffer manager live as long as the JVM, one per bound: every store of
 * every Kafka Streams client in the process with the same bound shares them (RocksDB's own objects,
 * never closed per store).
 *
 * <p><b>Disk.</b> Kafka Streams' stores use universal compaction, which lets the runs written after
 * a store's oldest one grow to twice its size ({@code max_size_amplification_percent} 200) before
 * it merges them all, and considers a merge only once four runs are on disk. A store whose entries
 * expire (statuses, cache answers and their expiry indexes) then holds up to three times its live
 * data on disk, and climbs towards that for the better part of an hour before the first full merge
 * (the soak benchmark). Here a merge is considered from {@value #COMPACTION_TRIGGER} runs on and the
 * newer runs may reach {@value #MAX_SIZE_AMPLIFICATION_PERCENT} % of the oldest, so that a store
 * stays within about 1.2 times its live data plus a memtable or two; the price is merging a small
 * store more often, and a store that only grows (a backlog in an outage) is rewritten each time it
 * has grown by a fifth, a logarithmic number of times.
 */
public final class BoundedRocksDb implements RocksDBConfigSetter {

    /** The Streams property this setter reads its bound from (bytes), beside {@code rocksdb.config.setter}. */
    public static final String MEMORY_BYTES_CONFIG = "quotaflow.rocksdb.memory.bytes";
    /** {@code state.memory-mb}'s default. */
    public static final int DEFAULT_MEMORY_MB = 128;
    /** The least {@code state.memory-mb} may be. */
    public static final int MIN_MEMORY_MB = 16;
    static final double MEMTABLE_SHARE = 0.25;
    static final long MEMTABLE_BYTES = 512L << 10;
    static final int MEMTABLES_PER_STORE = 2;
    /** Share of the cache kept for index and filter blocks, so that data blocks cannot evict them. */
    static final double HIGH_PRIORITY_SHARE = 0.1;
    static final int MAX_SIZE_AMPLIFICATION_PERCENT = 20;
    /** Sorted runs on disk from which universal compaction considers a merge (RocksDB's default is 4). */
    static final int COMPACTION_TRIGGER = 2;

    private record Shared(Cache cache, WriteBufferManager writeBuffers) { }

    private static final Map<Long, Shared> SHARED = new ConcurrentHashMap<>();

    /** This store's universal-compaction options (Kafka Streams makes a setter per store), closed with it. */
    private CompactionOptionsUniversal compaction;

    /**
     * {@code kafka} with this setter and its bound added where it does not name a setter itself (a
     * {@code kafka.rocksdb.config.setter} wins, and then the bound is not added).
     */
    public static Map<String, String> applyTo(Map<String, String> kafka, int memoryMb) {
        if (memoryMb < MIN_MEMORY_MB) {
            throw new IllegalArgumentException("state.memory-mb must be at least " + MIN_MEMORY_MB + ", got " + memoryMb);
        }
        Map<String, String> out = new TreeMap<>(kafka);
        if (!out.containsKey(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)) {
            out.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDb.class.getName());
            out.put(MEMORY_BYTES_CONFIG, Long.toString((long) memoryMb << 20));
        }
        return out;
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        long bytes = bytes(configs.get(MEMORY_BYTES_CONFIG));
        Shared shared = SHARED.computeIfAbsent(bytes, b -> {
            Cache cache = new LRUCache(b, -1, false, HIGH_PRIORITY_SHARE);
            return new Shared(cache, new WriteBufferManager((long) (b * MEMTABLE_SHARE), cache));
        });
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(shared.cache());
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(shared.writeBuffers());
        // even the least bound (16 MiB) leaves 2 MiB a memtable of its quarter, four times MEMTABLE_BYTES
        options.setWriteBufferSize(MEMTABLE_BYTES);
        options.setMaxWriteBufferNumber(MEMTABLES_PER_STORE);
        options.setLevel0FileNumCompactionTrigger(COMPACTION_TRIGGER);
        options.setTableFormatConfig(table);
        compaction = new CompactionOptionsUniversal();
        compaction.setMaxSizeAmplificationPercent(MAX_SIZE_AMPLIFICATION_PERCENT);
        options.setCompactionOptionsUniversal(compaction);
    }

    @Override
    public void close(String storeName, Options options) {
        // the cache and the write buffer manager are shared by every store: never closed with one
        if (compaction != null) {
            compaction.close();
            compaction = null;
        }
    }

    static long bytes(Object configured) {
        if (configured == null) {
            return (long) DEFAULT_MEMORY_MB << 20;
        }
        long bytes;
        try {
            bytes = Long.parseLong(configured.toString().strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(MEMORY_BYTES_CONFIG + " must be a number of bytes, got '" + configured + "'", e);
        }
        if (bytes < (long) MIN_MEMORY_MB << 20) {
            throw new IllegalArgumentException(MEMORY_BYTES_CONFIG + " must be at least " + ((long) MIN_MEMORY_MB << 20) + ", got " + bytes);
        }
        return bytes;
    }
}
