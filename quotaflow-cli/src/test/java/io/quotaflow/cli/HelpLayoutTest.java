package io.quotaflow.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every help fits 80 columns, lists every command whole, and keeps every example on its line. */
class HelpLayoutTest {

    @Test
    void shouldFitEveryLineOfEveryHelpIn80Columns() {
        List<String> tooWide = new ArrayList<>();
        for (CommandLine cmd : everyCommand(QuotaflowCommand.commandLine())) {
            String usage = cmd.getUsageMessage();
            for (String line : usage.split("\\R")) {
                if (line.length() > HelpLayout.WIDTH) {
                    tooWide.add(cmd.getCommandSpec().qualifiedName() + ": " + line);
                }
            }
        }
        assertThat(tooWide).isEmpty();
        assertThat(everyCommand(QuotaflowCommand.commandLine())).hasSizeGreaterThanOrEqualTo(12);
    }

    @Test
    void shouldShowEveryCommandsHeaderWholeOnOneLineOfTheCommandList() {
        CommandLine top = QuotaflowCommand.commandLine();
        String usage = top.getUsageMessage();
        for (Map.Entry<String, CommandLine> sub : top.getSubcommands().entrySet()) {
            String[] header = sub.getValue().getCommandSpec().usageMessage().header();
            String[] description = sub.getValue().getCommandSpec().usageMessage().description();
            String shown = header.length > 0 ? header[0] : description[0];
            assertThat(header.length > 0 || sub.getKey().equals("help")).as(sub.getKey() + " has a header").isTrue();
            assertThat(usage).as(sub.getKey()).containsPattern("(?m)^  " + sub.getKey() + " +" + java.util.regex.Pattern.quote(
                    String.format(shown)) + "$");
        }
    }

    @Test
    void shouldKeepEveryExampleLineWholeAndCopyPastable() {
        int examples = 0;
        for (CommandLine cmd : everyCommand(QuotaflowCommand.commandLine())) {
            String usage = cmd.getUsageMessage();
            for (String line : cmd.getCommandSpec().usageMessage().footer()) {
                String text = String.format(line);
                if (text.startsWith("  ")) {
                    examples++;
                    assertThat(text.length()).as(cmd.getCommandSpec().qualifiedName() + ": " + text)
                            .isLessThanOrEqualTo(HelpLayout.WIDTH);
                    assertThat(usage).as(cmd.getCommandSpec().qualifiedName()).contains(text + System.lineSeparator());
                }
            }
        }
        assertThat(examples).isGreaterThan(15);
    }

    @Test
    void shouldUseOneLayoutAcrossCommands() {
        for (CommandLine cmd : everyCommand(QuotaflowCommand.commandLine())) {
            String name = cmd.getCommandSpec().qualifiedName();
            String usage = cmd.getUsageMessage();
            assertThat(usage).as(name).contains("Usage: ").contains("Options:" + System.lineSeparator());
            if (!cmd.getSubcommands().isEmpty()) {
                assertThat(usage).as(name).contains("Commands:" + System.lineSeparator());
            }
            if (!cmd.getCommandSpec().usageMessage().exitCodeList().isEmpty()) {
                assertThat(usage).as(name).contains("Exit codes:" + System.lineSeparator());
            }
        }
    }

    @Test
    void shouldPrintTheVersionOfTheBuild() {
        StringWriter out = new StringWriter();
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), Map.of(),
                "--version");

        assertThat(code).isZero();
        assertThat(out.toString().strip()).matches("quotaflow \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?")
                .doesNotContain("development build");
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
