package io.quotaflow.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class TopicsApplierTest {

    @Test
    void shouldCapMinInsyncReplicasAtTheReplicationFactor() {
        TopicSpec spec = new TopicSpec("t", 6, 3, Map.of("min.insync.replicas", "2", "retention.ms", "1"));

        assertThat(TopicComparison.effectiveConfigs(spec, 1)).containsEntry("min.insync.replicas", "1");
        assertThat(TopicComparison.effectiveConfigs(spec, 2)).containsEntry("min.insync.replicas", "2");
        assertThat(TopicComparison.effectiveConfigs(spec, 3))
                .containsEntry("min.insync.replicas", "2").containsEntry("retention.ms", "1");
    }

    @Test
    void shouldCompareConfigValuesIgnoringListFormatting() {
        assertThat(TopicComparison.sameValue("delete", "delete")).isTrue();
        assertThat(TopicComparison.sameValue("compact,delete", "delete, compact")).isTrue();
        assertThat(TopicComparison.sameValue("604800000", "2592000000")).isFalse();
        assertThat(TopicComparison.sameValue(null, "1")).isFalse();
        assertThat(TopicComparison.sameValue("compact", "compact,delete")).isFalse();
    }

    @Test
    void shouldRejectTwoDeclarationsOfOneTopic() {
        TopicSpec spec = new TopicSpec("t", 1, 1, Map.of());

        assertThatThrownBy(() -> new TopicsApplier(List.of(spec, spec))).hasMessageContaining("declared twice");
    }

    @Test
    void shouldLoadTheBundledDeclarations() {
        assertThat(TopicsApplier.bundled().specs()).extracting(TopicSpec::name)
                .containsExactlyElementsOf(TopicSpec.BUNDLED_TOPICS);
    }
}
