package io.quotaflow.settings;

import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicNamesTest {

    @Test
    void shouldKeepTheUnprefixedNamesByDefault() {
        assertThat(TopicNames.DEFAULT.all()).containsExactly("tickets.interactive", "tickets.standard", "tickets.bulk",
                "tickets.retry", "tickets.classified", "tickets.dlq", "tickets.handoff");
        assertThat(TopicNames.DEFAULT.handoff()).isEqualTo("tickets.handoff");
        assertThat(TopicNames.DEFAULT.defaultApplicationId()).isEqualTo("quotaflow");
    }

    @Test
    void shouldGiveTwoPrefixesDisjointTopicsThatDoNotRecogniseEachOther() {
        TopicNames a = new TopicNames("team-a.");
        TopicNames b = new TopicNames("team-b.");

        Set<String> shared = new HashSet<>(a.all());
        shared.retainAll(b.all());
        assertThat(shared).isEmpty();
        assertThat(a.inputs()).containsExactly("team-a.tickets.interactive", "team-a.tickets.standard",
                "team-a.tickets.bulk", "team-a.tickets.retry");
        assertThat(a.priorityOf("team-a.tickets.bulk")).contains(Priority.BULK);
        assertThat(a.priorityOf("team-b.tickets.bulk")).isEmpty();
        assertThat(a.priorityOf("tickets.bulk")).isEmpty();
        assertThat(TopicNames.DEFAULT.priorityOf("team-a.tickets.bulk")).isEmpty();
        assertThat(a.defaultApplicationId()).isNotEqualTo(b.defaultApplicationId());
    }

    @Test
    void shouldRefuseAPrefixKafkaCannotName() {
        assertThatThrownBy(() -> new TopicNames("a/b")).hasMessageContaining("topics.prefix");
    }
}
