package io.quotaflow.bench;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.dlq.ReplayDecision;
import io.quotaflow.dlq.ReplayRecords;
import io.quotaflow.dlq.ReplaySelector;
import io.quotaflow.dlq.ReplayOptions;
import io.quotaflow.dlq.ReplaySummary;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.topology.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayBenchmarkTest {

    @Test
    void shouldWriteSmallDeadLettersWithQuotaflowsFailureHeaders() throws Exception {
        ProducerRecord<byte[], byte[]> r = ReplayBenchmark.deadLetter(41, 1_700_000_000_000L);
        assertThat(r.topic()).isEqualTo(Topics.DLQ.name());
        assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("DL-000042");
        assertThat(r.value().length).isBetween(100, 250);
        assertThat(Json.MAPPER.readTree(r.value()).path("id").asText()).isEqualTo("DL-000042");
        assertThat(FailureHeaders.string(r.headers(), DeadLetterHeaders.ERROR_KIND)).contains(ErrorKind.RETRIES_EXHAUSTED.wire());
        assertThat(FailureHeaders.string(r.headers(), DeadLetterHeaders.ERROR_STATUS)).contains("503");
        assertThat(FailureHeaders.string(r.headers(), DeadLetterHeaders.VERSION)).contains("1");
        assertThat(FailureHeaders.string(r.headers(), DeadLetterHeaders.ORIGIN_TOPIC)).contains(ReplayBenchmark.origin(41).topic());

        // the replayer selects it with --kind retries-exhausted and sends it home with a replay count of 1
        ConsumerRecord<byte[], byte[]> read = new ConsumerRecord<>(r.topic(), 2, 99, r.timestamp(), TimestampType.CREATE_TIME,
                r.key().length, r.value().length, r.key(), r.value(), r.headers(), Optional.empty());
        ReplayOptions options = ReplayOptions.builder().kinds(ErrorKind.RETRIES_EXHAUSTED.wire()).ratePerSecond(0).build();
        assertThat(ReplaySelector.decide(read, options)).isEqualTo(ReplayDecision.REPLAY);
        ProducerRecord<byte[], byte[]> back = ReplayRecords.replayRecord(read);
        assertThat(back.topic()).isEqualTo(ReplayBenchmark.origin(41).topic());
        assertThat(back.value()).isEqualTo(r.value());
        assertThat(FailureHeaders.string(back.headers(), DeadLetterHeaders.REPLAY_COUNT)).contains("1");
    }

    @Test
    void shouldSpreadTheOriginsOverThePriorityTopics() {
        Map<Priority, Integer> counts = new EnumMap<>(Priority.class);
        for (int i = 0; i < 1_000; i++) {
            counts.merge(ReplayBenchmark.origin(i), 1, Integer::sum);
        }
        assertThat(counts).containsEntry(Priority.INTERACTIVE, 100).containsEntry(Priority.STANDARD, 500)
                .containsEntry(Priority.BULK, 400);
        assertThat(ReplayBenchmark.key(0)).isEqualTo("DL-000001");
    }

    @Test
    void shouldReportRecordsPerSecondAndJudgeByWhatCameBack() {
        ReplaySummary unlimited = new ReplaySummary(false, ReplaySummary.Outcome.COMPLETED, 40_000, 40_000, 0, 0, Map.of(), Map.of(),
                0, Duration.ofMillis(1_600));
        ReplaySummary paced = new ReplaySummary(false, ReplaySummary.Outcome.MAX_RECORDS, 500, 500, 0, 0, Map.of(), Map.of(), 39_500,
                Duration.ofMillis(10_000));
        ScenarioResult r = ReplayBenchmark.result(Scenario.dlqReplay(40_000), 40_000, unlimited,
                new ReplayBenchmark.Found(40_000, 0), 50, paced);
        ScenarioFigures.Replay replay = r.figures().replay();
        assertThat(replay.recordsPerSecond()).isEqualTo(25_000.0);
        assertThat(replay.defaultRateRecordsPerSecond()).isEqualTo(50.0);
        assertThat(replay.outcome()).isEqualTo("completed");
        assertThat(r.clean()).isTrue();
        assertThat(r.figures().lost()).isZero();
        assertThat(r.notes()).singleElement().asString().contains("25,000 records/s").contains("--rate 50: 500 records");

        ScenarioResult lost = ReplayBenchmark.result(Scenario.dlqReplay(40_000), 40_000, unlimited,
                new ReplayBenchmark.Found(39_990, 3), 50, paced);
        assertThat(lost.clean()).isFalse();
        assertThat(lost.figures().lost()).isEqualTo(10);
    }
}
