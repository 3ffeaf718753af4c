package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Who spent the CPU of benchmark (i)'s measured window. */
class CpuUseTest {

    private static final String APP = "quotaflow-bench";
    private static final String CLIENT = APP + "-919c9906-db87-4ac9-98f7-c75d6bb5e10f";

    @Test
    void shouldTellThePipelinesThreadsByItsApplicationIdAndItsUuid() {
        assertThat(CpuUse.groupOf(CLIENT + "-StreamThread-1", APP)).isEqualTo(CpuUse.Group.STREAM_THREAD);
        assertThat(CpuUse.groupOf("kafka-producer-network-thread | " + CLIENT + "-StreamThread-1-producer", APP))
                .isEqualTo(CpuUse.Group.PIPELINE_OTHER);
        assertThat(CpuUse.groupOf(CLIENT + "-StateUpdater-1", APP)).isEqualTo(CpuUse.Group.PIPELINE_OTHER);
        assertThat(CpuUse.groupOf("BatchSpanProcessor_WorkerThread-1", APP)).as("traces' exporter").isEqualTo(CpuUse.Group.PIPELINE_OTHER);
        assertThat(CpuUse.groupOf("quotaflow-http-3", APP)).isEqualTo(CpuUse.Group.PIPELINE_OTHER);
        assertThat(CpuUse.groupOf("HttpClient-1-SelectorManager", APP)).isEqualTo(CpuUse.Group.PIPELINE_OTHER);
        // the bench's own clients share the prefix but not Streams' UUID
        assertThat(CpuUse.groupOf("kafka-producer-network-thread | quotaflow-bench-dead-letters", APP))
                .isEqualTo(CpuUse.Group.BROKER);
        assertThat(CpuUse.groupOf("quotaflow-sim-http-2", APP)).isEqualTo(CpuUse.Group.SIMULATOR);
        assertThat(CpuUse.groupOf("main", APP)).isEqualTo(CpuUse.Group.BENCH);
        assertThat(CpuUse.groupOf("kafka-producer-network-thread | quotaflow-publish", APP)).isEqualTo(CpuUse.Group.BENCH);
        assertThat(CpuUse.groupOf("data-plane-kafka-request-handler-0", APP)).isEqualTo(CpuUse.Group.BROKER);
    }

    @Test
    void shouldCountWhatEachThreadSpentInTheWindowAndLeaveTheRestToTheJvm() {
        CpuUse start = new CpuUse(Map.of(1L, 1_000L, 2L, 500L), Map.of(1L, CLIENT + "-StreamThread-1", 2L, "quotaflow-sim-http-1"),
                10_000L);
        // thread 3 started inside the window; the process spent 9,000 ns more than the threads it can see
        CpuUse end = new CpuUse(Map.of(1L, 4_000L, 2L, 1_500L, 3L, 2_000L),
                Map.of(1L, CLIENT + "-StreamThread-1", 2L, "quotaflow-sim-http-1", 3L, "data-plane-kafka-request-handler-1"),
                25_000L);

        Map<CpuUse.Group, Long> spent = end.since(start, APP);

        assertThat(spent).containsEntry(CpuUse.Group.STREAM_THREAD, 3_000L).containsEntry(CpuUse.Group.SIMULATOR, 1_000L)
                .containsEntry(CpuUse.Group.BROKER, 2_000L).containsEntry(CpuUse.Group.PIPELINE_OTHER, 0L)
                .containsEntry(CpuUse.Group.JVM, 9_000L);
    }

    @Test
    void shouldDeriveThePipelinesRateFromTheTighterOfItsThreadsAndItsStreamThread() {
        Map<CpuUse.Group, Long> spent = Map.of(CpuUse.Group.STREAM_THREAD, 200_000_000L, CpuUse.Group.PIPELINE_OTHER,
                100_000_000L, CpuUse.Group.BROKER, 100_000_000L);

        // 1,000 tickets: the stream thread 200 µs each (5,000/s on one core), the pipeline 300 µs (6,667/s on two)
        String line = CpuUse.describe(new java.util.EnumMap<>(spent), 1_000, 2);

        assertThat(line).contains("stream thread 200 µs", "rest of the pipeline 100 µs", "broker 100 µs", "in all 400 µs",
                "would do 5,000 tickets/s", "all its threads: 6,667/s", "one core: 5,000/s");
        assertThat(CpuUse.describe(new java.util.EnumMap<>(spent), 1_000, 4)).contains("would do 5,000 tickets/s", "13,333/s");
    }
}
