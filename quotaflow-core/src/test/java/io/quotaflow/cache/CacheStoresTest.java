package io.quotaflow.cache;

import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The stores the dispatcher adds for the cache: changelogged, named as documented (QuotaflowTopologyStoresTest: on RocksDB by default). */
class CacheStoresTest {

    @Test
    void shouldBuildChangeloggedStoresUnderTheDocumentedNames() {
        List<StoreBuilder<?>> stores = CacheStores.stores(Stores::inMemoryKeyValueStore);

        assertThat(stores).extracting(StoreBuilder::name).containsExactlyElementsOf(CacheStores.NAMES);
        assertThat(CacheStores.NAMES).containsExactly("qf-cache-answers", "qf-cache-expiry", "qf-coalesce-groups",
                "qf-coalesce-followers", "qf-coalesce-members");
        assertThat(stores).allSatisfy(b -> assertThat(b.loggingEnabled()).as("%s changelogged", b.name()).isTrue());
    }
}
