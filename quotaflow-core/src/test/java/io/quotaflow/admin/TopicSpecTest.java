package io.quotaflow.admin;

import io.quotaflow.testkit.RepositoryFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.quotaflow.records.Priority;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopicSpecTest {

    private static final Set<String> TOPIC_CONFIG_NAMES = Arrays.stream(TopicConfig.class.getFields())
            .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getName().endsWith("_CONFIG"))
            .map(TopicSpecTest::constant)
            .collect(Collectors.toSet());

    @Test
    void shouldLoadTheSevenBundledDeclarations() {
        List<TopicSpec> specs = TopicSpec.loadBundled();

        assertThat(specs).extracting(TopicSpec::name).containsExactly(
                "tickets.interactive", "tickets.standard", "tickets.bulk",
                "tickets.retry", "tickets.classified", "tickets.dlq", "tickets.handoff");
        assertThat(specs).extracting(TopicSpec::name)
                .containsAll(Arrays.stream(Priority.values()).map(Priority::topic).toList());
    }

    @Test
    void shouldDeclareSensibleProductionSettings() {
        for (TopicSpec spec : TopicSpec.loadBundled()) {
            assertThat(spec.partitions()).as(spec.name()).isBetween(1, 100);
            assertThat(spec.replicationFactor()).as(spec.name()).isEqualTo(3);
            assertThat(TOPIC_CONFIG_NAMES).as(spec.name() + " config keys").containsAll(spec.configs().keySet());
            assertThat(Integer.parseInt(spec.configs().get("min.insync.replicas")))
                    .as(spec.name()).isLessThan(spec.replicationFactor()).isGreaterThan(1);
            assertThat(spec.configs()).as(spec.name()).containsEntry("cleanup.policy", "delete");
            long retention = Long.parseLong(spec.configs().get("retention.ms"));
            assertThat(retention).as(spec.name()).isGreaterThanOrEqualTo(Duration.ofDays(7).toMillis());
        }
        assertThat(retentionOf("tickets.classified")).isGreaterThanOrEqualTo(Duration.ofDays(30).toMillis());
        assertThat(retentionOf("tickets.dlq")).isGreaterThanOrEqualTo(Duration.ofDays(30).toMillis());
    }

    @Test
    void shouldBundleExactlyTheDeclarationsOfTheRepositoryTopicsDirectory() {
        // surefire runs in the project directory, where topics/ lives
        List<TopicSpec> fromRepository = TopicSpec.loadDirectory(RepositoryFiles.path("topics"));

        assertThat(fromRepository).containsExactlyInAnyOrderElementsOf(TopicSpec.loadBundled());
    }

    @Test
    void shouldLoadEveryJsonFileOfADirectory(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("b.json"), "{\"name\":\"b\",\"partitions\":2,\"replicationFactor\":1}");
        Files.writeString(dir.resolve("a.json"),
                "{\"name\":\"a\",\"partitions\":1,\"replicationFactor\":1,\"configs\":{\"retention.ms\":\" 1000 \"}}");
        Files.writeString(dir.resolve("README.md"), "not a declaration");

        assertThat(TopicSpec.load(dir)).containsExactly(
                new TopicSpec("a", 1, 1, Map.of("retention.ms", "1000")),
                new TopicSpec("b", 2, 1, Map.of()));
    }

    @Test
    void shouldRejectInvalidDeclarations() {
        assertThatThrownBy(() -> parse("{\"name\":\"t\",\"partitions\":1,\"replicationFactor\":1,\"partition\":3}"))
                .hasMessageContaining("invalid topic declaration test.json").hasMessageContaining("partition");
        assertThatThrownBy(() -> parse("{\"name\":\"t\",\"partitions\":0,\"replicationFactor\":1}"))
                .hasMessageContaining("partitions must be at least 1");
        assertThatThrownBy(() -> parse("{\"name\":\"t\",\"partitions\":1}"))
                .hasMessageContaining("replicationFactor");
        assertThatThrownBy(() -> parse("{\"name\":\"bad name\",\"partitions\":1,\"replicationFactor\":1}"))
                .hasMessageContaining("invalid topic name");
        assertThatThrownBy(() -> parse("{\"partitions\":1,\"replicationFactor\":1}"))
                .hasMessageContaining("invalid topic declaration");
        assertThatThrownBy(() -> parse("{\"name\":\"t\",\"partitions\":1,\"replicationFactor\":1,"
                + "\"configs\":{\"retention.ms\":null}}"))
                .hasMessageContaining("retention.ms");
        assertThatThrownBy(() -> parse("not json")).hasMessageContaining("invalid topic declaration");
    }

    @Test
    void shouldRejectADirectoryDeclaringATopicTwice(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.json"), "{\"name\":\"t\",\"partitions\":1,\"replicationFactor\":1}");
        Files.writeString(dir.resolve("b.json"), "{\"name\":\"t\",\"partitions\":2,\"replicationFactor\":1}");

        assertThatThrownBy(() -> TopicSpec.loadDirectory(dir)).hasMessageContaining("declared twice");
        assertThatThrownBy(() -> TopicSpec.loadDirectory(dir.resolve("missing")))
                .hasMessageContaining("not found");
    }

    private static TopicSpec parse(String json) {
        return TopicSpec.parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test.json");
    }

    private static long retentionOf(String topic) {
        return TopicSpec.loadBundled().stream().filter(s -> s.name().equals(topic))
                .map(s -> Long.parseLong(s.configs().get("retention.ms"))).findFirst().orElseThrow();
    }

    private static String constant(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
