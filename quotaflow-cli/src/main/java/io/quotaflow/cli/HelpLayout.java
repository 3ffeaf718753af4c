package io.quotaflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * One help layout for every command, applied to the whole command tree: 80 columns whatever the
 * terminal, then a one-line header, "Usage:", "Description:", "Options:", "Commands:", "Exit codes:"
 * and the command's examples. Examples are written to fit, so none is wrapped (copy-pastable).
 */
final class HelpLayout {

    /** The width every help is rendered at. */
    static final int WIDTH = 80;

    private HelpLayout() {
    }

    /** Applies the layout to {@code cli} and all its subcommands; returns {@code cli}. */
    static CommandLine apply(CommandLine cli) {
        UsageMessageSpec u = cli.getCommandSpec().usageMessage();
        u.width(WIDTH).autoWidth(false);
        if (u.header().length > 0) {
            u.headerHeading("%n");
        }
        u.synopsisHeading("Usage: ");
        if (u.description().length > 0) {
            u.descriptionHeading("%nDescription:%n");
        }
        u.optionListHeading("%nOptions:%n");
        u.commandListHeading("%nCommands:%n");
        if (!u.exitCodeList().isEmpty()) {
            u.exitCodeListHeading("%nExit codes:%n");
        }
        if (u.footer().length > 0 && u.footerHeading().isEmpty()) {
            u.footerHeading("%n");
        }
        for (CommandLine sub : cli.getSubcommands().values()) {
            apply(sub);
        }
        return cli;
    }
}
