package io.quotaflow.settings;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GroupMembershipTest {

    @Test
    void shouldAddASixSecondSessionAndHalfSecondHeartbeatsByDefault() {
        Map<String, String> kafka = GroupMembership.ofDefaults().applyTo(Map.of("security.protocol", "SSL"));
        assertThat(kafka).containsEntry("session.timeout.ms", "6000").containsEntry("heartbeat.interval.ms", "500")
                .containsEntry("transaction.timeout.ms", "5000").containsEntry("security.protocol", "SSL");
    }

    @Test
    void shouldLeaveWhatAKafkaKeySetsAlone() {
        Map<String, String> kafka = new GroupMembership(10_000, 2_000, 8_000).applyTo(Map.of("session.timeout.ms", "45000"));
        assertThat(kafka).containsEntry("session.timeout.ms", "45000").containsEntry("heartbeat.interval.ms", "2000")
                .containsEntry("transaction.timeout.ms", "8000");
    }

    @Test
    void shouldLeaveTheStreamsProtocolToTheBrokersGroupSettings() {
        Map<String, String> kafka = GroupMembership.ofDefaults().applyTo(Map.of("group.protocol", "STREAMS"));
        assertThat(kafka).doesNotContainKeys("session.timeout.ms", "heartbeat.interval.ms").containsEntry("transaction.timeout.ms", "5000");
    }

    @Test
    void shouldRefuseAHeartbeatThatIsNotBelowTheSession() {
        assertThatThrownBy(() -> new GroupMembership(6_000, 6_000, 5_000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("instance.heartbeat-interval-ms");
        assertThatThrownBy(() -> new GroupMembership(0, 1, 5_000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GroupMembership(6_000, 1_000, 500)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("instance.transaction-timeout-ms");
    }

    @Test
    void shouldBoundTheCreditByTheGroupsSessionTimeout() {
        assertThat(GroupMembership.takeoverBound(Map.of("session.timeout.ms", "6000"))).isEqualTo(Duration.ofSeconds(6));
        assertThat(GroupMembership.takeoverBound(Map.of("session.timeout.ms", "6000",
                "main.consumer.session.timeout.ms", "10000"))).as("the main consumer's wins").isEqualTo(Duration.ofSeconds(10));
        assertThat(GroupMembership.takeoverBound(Map.of("consumer.session.timeout.ms", 8000)))
                .isEqualTo(Duration.ofSeconds(8));
        assertThat(GroupMembership.takeoverBound(Map.of())).as("Kafka's default").isEqualTo(Duration.ofSeconds(45));
        assertThat(GroupMembership.takeoverBound(Map.of("group.protocol", "streams", "session.timeout.ms", "6000")))
                .as("the broker sets the session").isZero();
        assertThat(GroupMembership.takeoverBound(Map.of("session.timeout.ms", "soon"))).isZero();
        assertThat(GroupMembership.takeoverBound(Map.of("session.timeout.ms", "6000",
                GroupMembership.TAKEOVER_CREDIT_CONFIG, "off"))).as("instance.takeover-credit=off").isZero();
    }
}
