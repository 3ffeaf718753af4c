package io.quotaflow.bench;

import io.quotaflow.records.DeadLetterHeaders;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.records.Json;
import io.quotaflow.topology.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Everything in {@code tickets.classified} and {@code tickets.dlq} up to their last stable offsets. */
record ChaosFinalRead(List<String> resultKeys, Map<String, byte[]> firstValues, List<ChaosAccounting.DeadLetter> deadLetters) {

    static ChaosFinalRead read(String bootstrap) {
        List<String> keys = new ArrayList<>();
        Map<String, byte[]> values = new HashMap<>();
        List<ChaosAccounting.DeadLetter> dead = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = OutputTopics.consumer(bootstrap, "quotaflow-chaos-final-read")) {
            List<TopicPartition> partitions = OutputTopics.partitions(consumer);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            long deadline = System.currentTimeMillis() + 120_000;
            while (partitions.stream().anyMatch(tp -> consumer.position(tp, Duration.ofSeconds(30)) < end.getOrDefault(tp, 0L))) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("could not read the output topics to their end within 120 s");
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    String key = String.valueOf(r.key());
                    if (r.topic().equals(Topics.CLASSIFIED.name())) {
                        keys.add(key);
                        values.putIfAbsent(key, r.value());
                    } else {
                        dead.add(new ChaosAccounting.DeadLetter(key,
                                FailureHeaders.string(r.headers(), DeadLetterHeaders.ERROR_KIND).orElse("unknown")));
                    }
                }
            }
        }
        return new ChaosFinalRead(keys, values, dead);
    }

    /** {category accuracy, urgency accuracy} of the first results against the generator's labels; NaN when there is none. */
    double[] accuracy(List<GeneratedTicket> tickets) {
        Map<String, GeneratedTicket.Label> labels = TicketGenerator.labels(tickets);
        long scored = 0;
        long category = 0;
        long urgency = 0;
        for (Map.Entry<String, byte[]> e : firstValues.entrySet()) {
            GeneratedTicket.Label label = labels.get(e.getKey());
            if (label == null) {
                continue;
            }
            scored++;
            try {
                JsonNode json = Json.MAPPER.readTree(e.getValue());
                category += label.category().equals(json.path("category").asText()) ? 1 : 0;
                urgency += label.urgency().equals(json.path("urgency").asText()) ? 1 : 0;
            } catch (IOException ex) {
                // an unreadable result counts as wrong
            }
        }
        return scored == 0 ? new double[] {Double.NaN, Double.NaN} : new double[] {category / (double) scored, urgency / (double) scored};
    }
}
