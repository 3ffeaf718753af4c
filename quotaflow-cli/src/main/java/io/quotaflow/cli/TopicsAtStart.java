package io.quotaflow.cli;

import io.quotaflow.settings.Keys;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicDifference;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.config.ConfigLoader;
import org.apache.kafka.clients.admin.Admin;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code run} does with the declared topics before it starts ({@code topics.manage}): apply them,
 * verify them without changing anything, or leave them to whoever owns them.
 */
final class TopicsAtStart {

    /** {@code topics.manage}'s values. */
    enum Mode { APPLY, VERIFY, NONE }

    private TopicsAtStart() {
    }

    static Mode mode(String value) {
        return Mode.valueOf(value.strip().toUpperCase(Locale.ROOT));
    }

    /**
     * Applies or verifies {@code applier}'s topics as {@code mode} says, printing one line per change,
     * note or difference on {@code err}.
     *
     * @return why the run must not start (each blocking difference, one per line), or empty to go on
     */
    static Optional<String> prepare(Mode mode, TopicsApplier applier, String bootstrapServers, Map<String, String> kafka,
                                    PrintWriter err) {
        if (mode == Mode.NONE) {
            err.println("topics: not applied or verified (topics.manage=none)");
            err.flush();
            return Optional.empty();
        }
        try (Admin admin = KafkaClients.admin(bootstrapServers, kafka)) {
            if (mode == Mode.APPLY) {
                applier.apply(admin).forEach(c -> err.println("topics: " + c));
                err.flush();
                return Optional.empty();
            }
            List<TopicDifference> differences = applier.diff(admin);
            differences.stream().filter(d -> !d.kind().blocking()).forEach(d -> err.println("topics: note: " + d.describe()));
            err.flush();
            List<String> blocking = differences.stream().filter(d -> d.kind().blocking()).map(TopicDifference::describe).toList();
            if (blocking.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of("the topics differ from their declarations and topics.manage=verify changes nothing:\n  "
                    + String.join("\n  ", blocking) + "\nrun `quotaflow topics apply` (or have their owner change them), or set "
                    + "topics.manage=none (" + ConfigLoader.envName(Keys.TOPICS_MANAGE) + "=none) to start without checking");
        }
    }
}
