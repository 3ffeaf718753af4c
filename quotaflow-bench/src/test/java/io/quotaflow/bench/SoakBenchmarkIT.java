package io.quotaflow.bench;

import io.quotaflow.state.BoundedRocksDb;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The soak scenario in seconds: an even feed, samples with every figure, every ticket once. */
@Order(8) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class SoakBenchmarkIT {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldSampleEveryFigureAndAccountForEveryTicketOnce() {
        SoakBenchmark.Options options = new SoakBenchmark.Options(Duration.ofSeconds(20), 400, 10_000, 2_000_000, Duration.ofSeconds(5),
                Duration.ofSeconds(10), Duration.ofSeconds(90), 7, Duration.ofSeconds(5));
        List<String> lines = new ArrayList<>();

        SoakBenchmark.Result r = new SoakBenchmark(options, lines::add).run();

        assertThat(r.lost()).isZero();
        assertThat(r.duplicates()).isZero();
        assertThat(r.http429()).isZero();
        assertThat(r.samples()).hasSizeGreaterThanOrEqualTo(4);
        SoakSample last = r.samples().get(r.samples().size() - 1);
        assertThat(last.published()).isEqualTo(400);
        assertThat(last.classified() + last.deadLettered()).isEqualTo(400);
        // the feed is even: about a quarter published by the first sample
        assertThat(r.samples().get(0).published()).isBetween(50L, 200L);
        assertThat(last.heapAfterGcBytes()).isPositive();
        assertThat(last.storeBytes()).isNotEmpty();
        assertThat(last.totalStoreBytes()).isPositive();
        assertThat(last.calls()).isPositive();
        // every store shares one block cache of state.memory-mb's default (io.quotaflow.state.BoundedRocksDb)
        assertThat(last.blockCacheCapacityBytes()).isEqualTo((long) BoundedRocksDb.DEFAULT_MEMORY_MB << 20);
        assertThat(last.blockCacheBytes()).isPositive().isLessThanOrEqualTo(last.blockCacheCapacityBytes());
        assertThat(r.verdicts()).extracting(SoakVerdict::series).containsExactly("heap after GC", "state stores");
        assertThat(r.verdicts()).allMatch(SoakVerdict::measured);
        assertThat(r.report()).contains("verdict (from 10.0 s on").contains("heap after GC:").contains("400 tickets: 0 lost, 0 duplicated");
        assertThat(lines).anyMatch(l -> l.contains("tick max"));
    }
}
