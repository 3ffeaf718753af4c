package io.quotaflow.state;

import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundedRocksDbTest {

    private static final long MIB = 1L << 20;

    @Test
    void shouldShareOneWriteBufferManagerAndCacheIndexBlocksAcrossStores() {
        Map<String, Object> configs = Map.of(BoundedRocksDb.MEMORY_BYTES_CONFIG, Long.toString(128 * MIB));
        try (Options a = options(); Options b = options()) {
            BoundedRocksDb setter = new BoundedRocksDb();
            setter.setConfig("qf-pending", a, configs);
            setter.setConfig("qf-status", b, configs);

            assertThat(a.writeBufferManager()).isNotNull().isSameAs(b.writeBufferManager());
            BlockBasedTableConfig table = (BlockBasedTableConfig) a.tableFormatConfig();
            assertThat(table.cacheIndexAndFilterBlocks()).isTrue();
            assertThat(table.cacheIndexAndFilterBlocksWithHighPriority()).isTrue();
            assertThat(table.pinTopLevelIndexAndFilter()).isTrue();
            assertThat(a.writeBufferSize()).isEqualTo(MIB / 2);
            assertThat(a.maxWriteBufferNumber()).isEqualTo(2);
            assertThat(a.level0FileNumCompactionTrigger()).isEqualTo(2);
            assertThat(a.compactionOptionsUniversal().maxSizeAmplificationPercent()).isEqualTo(20);
            setter.close("qf-pending", a);
        }
    }

    @Test
    void shouldGiveEachBoundItsOwnSharedCacheAndMemtablesOfHalfAMib() {
        try (Options small = options(); Options large = options()) {
            BoundedRocksDb setter = new BoundedRocksDb();
            setter.setConfig("qf-pending", small, Map.of(BoundedRocksDb.MEMORY_BYTES_CONFIG, Long.toString(16 * MIB)));
            setter.setConfig("qf-pending", large, Map.of(BoundedRocksDb.MEMORY_BYTES_CONFIG, Long.toString(512 * MIB)));

            // a quarter of the least bound (16 MiB) for memtables is 2 MiB a memtable, two a store: more than a store's 512 KiB
            assertThat(small.writeBufferSize()).isEqualTo(MIB / 2);
            assertThat(large.writeBufferSize()).isEqualTo(MIB / 2);
            assertThat(small.writeBufferManager()).isNotSameAs(large.writeBufferManager());
        }
    }

    @Test
    void shouldUseTheDefaultBoundWhenNoneIsGiven() {
        assertThat(BoundedRocksDb.bytes(null)).isEqualTo(BoundedRocksDb.DEFAULT_MEMORY_MB * MIB);
        assertThat(BoundedRocksDb.bytes(" 33554432 ")).isEqualTo(32 * MIB);
    }

    @Test
    void shouldRefuseABoundTooSmallOrNotANumber() {
        assertThatThrownBy(() -> BoundedRocksDb.bytes(Long.toString(MIB))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(BoundedRocksDb.MEMORY_BYTES_CONFIG).hasMessageContaining("at least");
        assertThatThrownBy(() -> BoundedRocksDb.bytes("lots")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'lots'");
        assertThatThrownBy(() -> BoundedRocksDb.applyTo(Map.of(), 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("state.memory-mb must be at least 16");
    }

    @Test
    void shouldAddItselfUnlessTheUserNamesASetter() {
        Map<String, String> added = BoundedRocksDb.applyTo(Map.of("acks", "all"), 64);
        assertThat(added).containsEntry(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDb.class.getName())
                .containsEntry(BoundedRocksDb.MEMORY_BYTES_CONFIG, Long.toString(64 * MIB)).containsEntry("acks", "all");
        // applied twice (the loader, then the pipeline's default): the first bound stays
        assertThat(BoundedRocksDb.applyTo(added, BoundedRocksDb.DEFAULT_MEMORY_MB)).isEqualTo(added);

        Map<String, String> own = Map.of(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, "com.acme.Tuned");
        assertThat(BoundedRocksDb.applyTo(own, 64)).isEqualTo(own);
    }

    private static Options options() {
        Options options = new Options();
        options.setTableFormatConfig(new BlockBasedTableConfig());
        return options;
    }
}
