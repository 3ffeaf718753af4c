package io.quotaflow.topology;

import io.quotaflow.cache.CacheStores;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.dispatch.DispatcherProcessor;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.status.StatusStore;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dispatcher's stores follow Streams' {@code dsl.store.suppliers.class}: RocksDB unless it says otherwise,
 * in memory (and still changelogged) when it names the in-memory suppliers, as the topology tests do.
 */
class QuotaflowTopologyStoresTest {

    private static final List<String> SOME_STORES = List.of(DispatcherProcessor.PENDING_STORE, DispatcherProcessor.IN_FLIGHT_STORE,
            StatusStore.STATUS, CacheStores.ANSWERS);

    @Test
    void shouldKeepTheDispatchersStoresInRocksDbByDefault() throws Exception {
        try (TopologyTestDriver driver = driver(new Properties())) {
            SOME_STORES.forEach(name -> assertThat(driver.getKeyValueStore(name).persistent()).as(name).isTrue());
        }
    }

    @Test
    void shouldKeepTheDispatchersStoresInMemoryWhenTheDslStoreSuppliersSaySo() throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        try (TopologyTestDriver driver = driver(props)) {
            SOME_STORES.forEach(name -> assertThat(driver.getKeyValueStore(name).persistent()).as(name).isFalse());
        }
    }

    private static TopologyTestDriver driver(Properties props) throws Exception {
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "acme-qf");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, io.quotaflow.testkit.TestDirs.temporary("qf-stores").toString());
        return new TopologyTestDriver(QuotaflowTopology.build(Fixtures.settings().withDispatchPartitions(1), ModelClients.of(FakeModelClient.labellingAll("billing", "low")),
                new SplittableRandom(1), DispatcherListener.NONE, props, Time.SYSTEM), props);
    }
}
