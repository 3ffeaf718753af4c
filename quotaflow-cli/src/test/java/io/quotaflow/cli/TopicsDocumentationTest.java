package io.quotaflow.cli;

import io.quotaflow.admin.TopicSpec;
import io.quotaflow.testkit.RepositoryFiles;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The declared topics (topics/*.json), the bundled list, {@code topics --help} and the docs name the
 * same topics, as ConfigDocumentationTest keeps the configuration table in step with the keys; and
 * every command's help ends with examples, as the README promises.
 */
class TopicsDocumentationTest {

    /** A topic's name where the docs or a help mention one (not a file such as tickets.jsonl, nor a partition suffix). */
    private static final Pattern TOPIC = Pattern.compile("\\btickets\\.([a-z]+)\\b(?!\\.\\w)");
    private static final Set<String> FILE_SUFFIXES = Set.of("json", "jsonl", "py", "txt", "csv");
    private static final Pattern COUNTED = Pattern.compile("\\b(\\d+|six|seven|eight) (?:declared )?topics\\b");
    private static final Map<String, Integer> WORDS = Map.of("six", 6, "seven", 7, "eight", 8);

    @Test
    void shouldDeclareInTopicsDirectoryExactlyTheBundledTopics() {
        List<TopicSpec> declared = declared();

        assertThat(declared).extracting(TopicSpec::name).containsExactlyInAnyOrderElementsOf(TopicSpec.BUNDLED_TOPICS)
                .contains("tickets.handoff");
        assertThat(TopicSpec.loadBundled()).as("the jar's copy").containsExactlyInAnyOrderElementsOf(declared);
    }

    @Test
    void shouldNameAndCountEveryDeclaredTopicInTheTopicsHelp() {
        String help = QuotaflowCommand.commandLine().getSubcommands().get("topics").getUsageMessage();

        assertThat(topicsNamedIn(help)).as("topics --help").containsExactlyInAnyOrderElementsOf(names());
        assertThat(countsIn(help)).as("topics --help counts").containsOnly(names().size());
    }

    @Test
    void shouldNameOnlyDeclaredTopicsAndCountThemRightInTheDocs() throws IOException {
        for (String doc : List.of("README.md", "docs/operations.md", "docs/design.md", "docs/configuration.md")) {
            String text = Files.readString(RepositoryFiles.path(doc), StandardCharsets.UTF_8);
            assertThat(names()).as(doc + " names only declared topics").containsAll(topicsNamedIn(text));
            Matcher declaredCount = Pattern.compile("the (\\d+) declared topics").matcher(text);
            while (declaredCount.find()) {
                assertThat(Integer.parseInt(declaredCount.group(1))).as(doc + ": " + declaredCount.group()).isEqualTo(names().size());
            }
        }
    }

    @Test
    void shouldListEveryDeclaredTopicWithItsPartitionsAndRetentionInTheOperationsGuide() throws IOException {
        String operations = Files.readString(RepositoryFiles.path("docs/operations.md"), StandardCharsets.UTF_8);
        Map<String, String> documented = new LinkedHashMap<>();
        Matcher row = Pattern.compile("(?m)^\\| `(tickets\\.[a-z]+)` \\| (\\d+) \\| (\\d+) days \\|").matcher(operations);
        while (row.find()) {
            documented.put(row.group(1), row.group(2) + " partitions, " + row.group(3) + " days");
        }
        Map<String, String> declared = new LinkedHashMap<>();
        for (TopicSpec spec : declared()) {
            long days = Long.parseLong(spec.configs().get("retention.ms")) / 86_400_000L;
            declared.put(spec.name(), spec.partitions() + " partitions, " + days + " days");
        }

        assertThat(documented).as("docs/operations.md, Topics: one row per declared topic").isEqualTo(declared);
    }

    @Test
    void shouldEndEveryCommandsHelpWithExamples() {
        List<String> without = new ArrayList<>();
        for (CommandLine cmd : everyCommand(QuotaflowCommand.commandLine())) {
            String name = cmd.getCommandSpec().qualifiedName();
            boolean examples = Stream.of(cmd.getCommandSpec().usageMessage().footer()).anyMatch(l -> l.startsWith("  quotaflow "));
            if (!name.endsWith(" help") && !examples) {
                without.add(name);
            }
        }
        assertThat(without).as("commands whose help has no example").isEmpty();
    }

    private static List<TopicSpec> declared() {
        return TopicSpec.loadDirectory(RepositoryFiles.path(TopicSpec.RESOURCE_DIR));
    }

    private static Set<String> names() {
        Set<String> names = new TreeSet<>();
        declared().forEach(spec -> names.add(spec.name()));
        return names;
    }

    private static Set<String> topicsNamedIn(String text) {
        Set<String> named = new TreeSet<>();
        Matcher m = TOPIC.matcher(text);
        while (m.find()) {
            if (!FILE_SUFFIXES.contains(m.group(1))) {
                named.add("tickets." + m.group(1));
            }
        }
        return named;
    }

    private static Set<Integer> countsIn(String text) {
        Set<Integer> counts = new TreeSet<>();
        Matcher m = COUNTED.matcher(text);
        while (m.find()) {
            counts.add(WORDS.getOrDefault(m.group(1), m.group(1).matches("\\d+") ? Integer.parseInt(m.group(1)) : -1));
        }
        return counts;
    }

    private static List<CommandLine> everyCommand(CommandLine root) {
        List<CommandLine> all = new ArrayList<>();
        all.add(root);
        for (CommandLine sub : root.getSubcommands().values()) {
            if (!all.contains(sub)) {
                all.addAll(everyCommand(sub));
            }
        }
        return all;
    }
}
