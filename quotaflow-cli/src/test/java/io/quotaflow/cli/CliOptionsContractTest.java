package io.quotaflow.cli;

import io.quotaflow.config.ConfigKeys;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every option of every production command, as its help shows it: described; with an environment mirror the
 * help names (a configuration key, whose {@code QUOTAFLOW_*} variable the loader reads: the key's flag in
 * {@code KeyTable}, or the key named in the description as "(key; ...)"; or a {@code QUOTAFLOW_*} variable named
 * in the description, which the strict loader must then know), unless it is listed below as the command's own
 * (no setting, so no variable); and with the default the help states equal to the key's default or to the
 * option's own default value.
 */
class CliOptionsContractTest {

    /** Options that are no setting (no key, no variable), by "command --option"; "* --option" for every command. */
    private static final Set<String> COMMAND_OWN = Set.of(
            "* --config",
            "quotaflow check --no-call",
            "quotaflow topics apply --topics-dir", "quotaflow topics list --topics-dir", "quotaflow topics describe --topics-dir",
            "quotaflow topics diff --topics-dir", "quotaflow topics acls --topics-dir", "quotaflow topics acls --apply",
            "quotaflow publish --file", "quotaflow publish --priority", "quotaflow publish --send-invalid", "quotaflow publish --json",
            "quotaflow cancel --priority",
            "quotaflow results --from-beginning", "quotaflow results --follow", "quotaflow results --until-end",
            "quotaflow results --max", "quotaflow results --idle-timeout", "quotaflow results --topic",
            "quotaflow status --url",
            "quotaflow plan --tokens-per-request", "quotaflow plan --tickets-per-request", "quotaflow plan --latency-s",
            "quotaflow plan --safety-factor", "quotaflow plan --backlog", "quotaflow plan --tickets", "quotaflow plan --route",
            "quotaflow plan --json",
            "quotaflow reset --keep-local-state", "quotaflow reset --input-offsets", "quotaflow reset --dry-run", "quotaflow reset --yes",
            "quotaflow dlq show --key", "quotaflow dlq show --offset", "quotaflow dlq show --kind", "quotaflow dlq show --max",
            "quotaflow dlq show --json", "quotaflow dlq show --topic", "quotaflow dlq stats --json", "quotaflow dlq stats --topic",
            "quotaflow dlq replay --since", "quotaflow dlq replay --until", "quotaflow dlq replay --kind", "quotaflow dlq replay --status",
            "quotaflow dlq replay --key", "quotaflow dlq replay --dry-run", "quotaflow dlq replay --force", "quotaflow dlq replay --rate",
            "quotaflow dlq replay --group", "quotaflow dlq replay --max-replays", "quotaflow dlq replay --reset",
            "quotaflow dlq replay --max-records", "quotaflow dlq replay --json", "quotaflow dlq replay --topic");

    /** The prefix application.id's default is compared under. */
    private static final String PREFIX = "p.";
    private static final Pattern VARIABLE = Pattern.compile("QUOTAFLOW_[A-Z0-9_]+");
    private static final Pattern KEY_IN_PARENTHESES = Pattern.compile("\\(([a-z][a-z0-9.-]+)[;)]");
    private static final Pattern DEFAULT_AFTER = Pattern.compile("[Dd]efault:? ([^;,)\\s]+)");
    private static final Pattern DEFAULT_BEFORE = Pattern.compile("(\\S+) \\(default[;)]");

    /** One option of one command, as the help shows it. */
    private record Shown(String command, OptionSpec option) {
        String name() {
            return command + " " + option.longestName();
        }

        String description() {
            return String.join(" ", option.description()).replace("${DEFAULT-VALUE}", String.valueOf(option.defaultValue()));
        }
    }

    @Test
    void shouldDescribeEveryOptionOfEveryProductionCommand() {
        List<String> undescribed = new ArrayList<>();
        for (Shown s : everyOption()) {
            if (s.description().isBlank()) {
                undescribed.add(s.name());
            }
        }
        assertThat(undescribed).isEmpty();
        assertThat(everyOption()).as("every production command walked").hasSizeGreaterThan(120);
    }

    @Test
    void shouldGiveEveryOptionAnEnvironmentMirrorTheLoaderKnowsOrListItAsTheCommandsOwn() {
        List<String> without = new ArrayList<>();
        List<String> unknownVariables = new ArrayList<>();
        Set<String> listedAndSeen = new TreeSet<>();
        for (Shown s : everyOption()) {
            List<String> variables = variables(s);
            variables.stream().filter(v -> !ConfigKeys.isKnownVariable(v)).forEach(v -> unknownVariables.add(s.name() + ": " + v));
            String own = COMMAND_OWN.contains(s.name()) ? s.name() : "* " + s.option().longestName();
            if (COMMAND_OWN.contains(own)) {
                listedAndSeen.add(own);
                assertThat(variables).as(s.name() + " is listed as the command's own but names a variable").isEmpty();
            } else if (variables.isEmpty()) {
                without.add(s.name());
            }
        }
        assertThat(unknownVariables).as("variables the help names that the strict loader refuses as unknown").isEmpty();
        assertThat(without).as("options with no environment mirror: give the option a key row in KeyTable (its flag), name "
                + "its key as \"(key; ...)\" or its QUOTAFLOW_* variable in the help, or list it here as the command's own").isEmpty();
        assertThat(listedAndSeen).as("every listed option exists").containsExactlyInAnyOrderElementsOf(COMMAND_OWN);
    }

    @Test
    void shouldOfferEveryFlagTheKeyTableNamesOnSomeProductionCommand() {
        Set<String> offered = new TreeSet<>();
        everyOption().forEach(s -> offered.addAll(List.of(s.option().names())));
        offered.add(LogOptions.FLAG); // global, read before picocli parses

        List<String> stale = new ArrayList<>();
        for (String k : ConfigKeys.names()) {
            ConfigKeys.flag(k).filter(f -> !offered.contains(f)).ifPresent(f -> stale.add(k + ": " + f));
        }
        assertThat(stale).as("flags configuration.md's table names that no command takes").isEmpty();
    }

    @Test
    void shouldStateTheDefaultTheOptionOrItsKeyReallyHas() {
        Map<String, String> wrong = new LinkedHashMap<>();
        int compared = 0;
        for (Shown s : everyOption()) {
            Optional<String> stated = statedDefault(s.description());
            Optional<String> key = key(s);
            String actual = key.map(CliOptionsContractTest::keyDefault).orElseGet(() -> ownDefault(s.option()));
            if (!s.option().hidden() && s.option().defaultValue() != null && !s.description().contains(s.option().defaultValue())) {
                wrong.put(s.name(), "its default " + s.option().defaultValue() + " is not in its help");
            }
            if (stated.isEmpty() || actual == null) {
                continue;
            }
            compared++;
            if (!normalized(stated.get()).equals(normalized(actual))) {
                wrong.put(s.name(), "help says default " + stated.get() + ", the " + (key.isPresent() ? "key " + key.get() : "option")
                        + " has " + actual);
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(compared).as("defaults compared").isGreaterThanOrEqualTo(15);
    }

    @Test
    void shouldCatchAnOptionWithoutAMirrorAWrongDefaultOrAnUnknownVariable() {
        CommandLine.Model.CommandSpec fixture = CommandLine.Model.CommandSpec.create().name("fixture");
        OptionSpec noMirror = OptionSpec.builder("--brand-new").description("Something new.").build();
        OptionSpec wrongDefault = OptionSpec.builder("--http-port").description("Port (default 9090).").build();
        OptionSpec unknown = OptionSpec.builder("--x").description("Env: QUOTAFLOW_NOT_A_THING.").build();
        fixture.addOption(noMirror).addOption(wrongDefault).addOption(unknown);

        assertThat(variables(new Shown("quotaflow fixture", noMirror))).isEmpty();
        assertThat(key(new Shown("quotaflow fixture", wrongDefault))).hasValue("http.port");
        assertThat(statedDefault(wrongDefault.description()[0])).hasValue("9090");
        assertThat(ConfigKeys.defaults().get("http.port")).isNotEqualTo("9090");
        assertThat(variables(new Shown("quotaflow fixture", unknown))).singleElement()
                .satisfies(v -> assertThat(ConfigKeys.isKnownVariable(v)).isFalse());
    }

    /** Every option but help and version of every production command (the developer commands are not added). */
    private static List<Shown> everyOption() {
        List<Shown> all = new ArrayList<>();
        collect(QuotaflowCommand.commandLine(), all);
        return all;
    }

    private static void collect(CommandLine cli, List<Shown> into) {
        if (!(cli.getCommandSpec().userObject() instanceof CommandLine.HelpCommand)) {
            for (OptionSpec o : cli.getCommandSpec().options()) {
                if (!o.usageHelp() && !o.versionHelp()) {
                    into.add(new Shown(cli.getCommandSpec().qualifiedName(), o));
                }
            }
        }
        cli.getSubcommands().values().forEach(sub -> collect(sub, into));
    }

    /** The key the option sets: the one whose flag it is, else the one its description names first in parentheses. */
    private static Optional<String> key(Shown s) {
        for (String k : ConfigKeys.names()) {
            if (ConfigKeys.flag(k).filter(f -> List.of(s.option().names()).contains(f)).isPresent()) {
                return Optional.of(k);
            }
        }
        Matcher m = KEY_IN_PARENTHESES.matcher(s.description());
        return m.find() && ConfigKeys.isKnown(m.group(1)) ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** The environment variables that set the option: its key's, and those its help names. */
    private static List<String> variables(Shown s) {
        List<String> found = new ArrayList<>();
        key(s).map(ConfigKeys::envName).ifPresent(found::add);
        Matcher m = VARIABLE.matcher(s.description());
        while (m.find()) {
            found.add(m.group());
        }
        return found;
    }

    /** "default: X", "default X" or "X (default)". */
    private static Optional<String> statedDefault(String description) {
        Matcher after = DEFAULT_AFTER.matcher(description);
        if (after.find()) {
            return Optional.of(after.group(1));
        }
        Matcher before = DEFAULT_BEFORE.matcher(description);
        return before.find() ? Optional.of(before.group(1)) : Optional.empty();
    }

    /**
     * The value {@code key} has when no source gives it; {@code application.id}'s under a prefix ("p."), since its
     * default is the prefix's ({@code <topics.prefix>quotaflow}).
     */
    private static String keyDefault(String key) {
        if (key.equals(io.quotaflow.settings.Keys.APPLICATION_ID)) {
            return io.quotaflow.config.ConfigLoader.resolve(null, Map.of(), Map.of(io.quotaflow.settings.Keys.TOPICS_PREFIX, PREFIX),
                    Set.of()).applicationId();
        }
        return ConfigKeys.defaults().get(key);
    }

    /** The option's own default: picocli's default value, else the field's initial value (null: none to compare). */
    private static String ownDefault(OptionSpec option) {
        if (option.defaultValue() != null) {
            return option.defaultValue();
        }
        Object initial = option.initialValue();
        return initial == null || initial instanceof Boolean || initial instanceof java.util.Collection<?>
                || initial instanceof Map<?, ?> ? null : initial.toString();
    }

    /** "none" is the empty default; "<topics.prefix>" stands for the prefix ({@link #PREFIX}); case and a final '.' aside. */
    private static String normalized(String value) {
        String v = value.replaceAll("\\.$", "").replace("<topics.prefix>", PREFIX).strip().toLowerCase(Locale.ROOT);
        return v.equals("none") ? "" : v;
    }
}
