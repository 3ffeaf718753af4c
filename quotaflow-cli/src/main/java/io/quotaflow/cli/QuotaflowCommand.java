package io.quotaflow.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/** The {@code quotaflow} command line. {@code main} only wires. */
@Command(name = "quotaflow",
        mixinStandardHelpOptions = true,
        versionProvider = QuotaflowCommand.Version.class,
        header = "Classify support tickets from Kafka with an LLM under rate limits.",
        description = {
                "Gets the most tickets per minute out of a provider's rate limits with zero 429s,",
                "zero lost tickets and zero duplicates.",
                "",
                "Every command that talks to a cluster reads its settings from --config FILE,",
                "then QUOTAFLOW_* environment variables, then flags (docs/configuration.md).",
                "Global options: --verbose (or -v) raises logging from WARN to INFO;",
                "--log-format text|json chooses the log lines' layout (log.format)."},
        exitCodeList = {
                "0:done, or stopped cleanly on Ctrl+C / SIGTERM",
                "1:the work failed (cluster, provider, a send, a scenario)",
                "2:usage or configuration error, or no command given (each command's help lists its own)"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  quotaflow topics apply --bootstrap-servers localhost:9092",
                "  quotaflow help run"},
        subcommands = {
                RunCommand.class,
                CheckCommand.class,
                TopicsCommand.class,
                PublishCommand.class,
                CancelCommand.class,
                ResultsCommand.class,
                StatusCommand.class,
                PlanCommand.class,
                ResetCommand.class,
                DlqCommand.class,
                CommandLine.HelpCommand.class})
public final class QuotaflowCommand implements java.util.concurrent.Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** A bare {@code quotaflow}: no command given is a usage error, as picocli's "missing required subcommand". */
    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        err.println("quotaflow: give a command");
        spec.commandLine().usage(err);
        err.flush();
        return ExitCodes.USAGE;
    }

    public static void main(String[] args) {
        // before anything reads it: model answers handed on by pooled threads, not a thread each (AsyncPool)
        io.quotaflow.http.AsyncPool.useCommonPool();
        GracefulStop.exit(execute(args));
    }

    /** Runs the command line and returns its exit code (tests call this). */
    public static int execute(String... args) {
        return execute(List.of(), args);
    }

    /**
     * Runs the command line with {@code extraCommands} (picocli command objects, such as the
     * developer distribution's demo, bench, broker and sim) beside the production commands.
     */
    public static int execute(List<Object> extraCommands, String... args) {
        return execute(extraCommands, Set.of(), args);
    }

    /**
     * As above, with {@code extraVariables}: the {@code QUOTAFLOW_*} variables those commands read
     * (the simulator's keys, the benchmark's JVM options), accepted by the strict configuration
     * loader beside the keys' own. The production distribution registers none.
     */
    public static int execute(List<Object> extraCommands, Set<String> extraVariables, String... args) {
        // UTF-8 whatever the platform charset: tickets are multilingual
        return execute(new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8), true),
                new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8), true),
                System.getenv(), extraCommands, extraVariables, args);
    }

    /**
     * Runs the command line with picocli's output on {@code out} and {@code err}. Nothing printed on
     * {@code err} can hold a secret: parse errors name options, never their values, and every message
     * goes through the redactor ({@link SafeErrors}).
     */
    static int execute(PrintWriter out, PrintWriter err, String... args) {
        return execute(out, err, System.getenv(), args);
    }

    /** As above, with the settings' environment {@code env} instead of the process's (tests). */
    static int execute(PrintWriter out, PrintWriter err, Map<String, String> env, String... args) {
        return execute(out, err, env, List.of(), args);
    }

    /** As above, with {@code extraCommands} beside the production commands. */
    public static int execute(PrintWriter out, PrintWriter err, Map<String, String> env, List<Object> extraCommands, String... args) {
        return execute(out, err, env, extraCommands, Set.of(), args);
    }

    /** As above, with {@code extraVariables} accepted beside the keys' variables. */
    public static int execute(PrintWriter out, PrintWriter err, Map<String, String> env, List<Object> extraCommands,
            Set<String> extraVariables, String... args) {
        boolean verbose = verbose(args);
        Optional<String> logFormat;
        try {
            logFormat = LogOptions.format(args);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.flush();
            return ExitCodes.USAGE;
        }
        // before anything logs; the command's --config file is read in the execution strategy below
        LogOptions.applyEarly(logFormat, env, verbose);
        String[] rest = LogOptions.without(withoutVerbose(args));
        SafeErrors safe = new SafeErrors(rest, env, verbose);
        CommandLine cli = commandLine(extraCommands);
        cli.setOut(out);
        cli.setErr(safe.redacting(err));
        cli.setParameterExceptionHandler(safe);
        cli.setExecutionExceptionHandler(safe::handleExecutionException);
        cli.setExecutionStrategy(parseResult -> {
            SafeErrors.refuseApiKeyProperties(parseResult);
            LogOptions.applySettings(parseResult, env, extraVariables, logFormat, verbose);
            Integer early = ClusterPreflight.run(parseResult, env, extraVariables);
            return early != null ? early : new CommandLine.RunLast().execute(parseResult);
        });
        return cli.execute(rest);
    }

    /** Whether {@code args} carry the global {@code --verbose} ({@code -v}) option. */
    public static boolean verbose(String... args) {
        return Arrays.stream(args).anyMatch(a -> a.equals("--verbose") || a.equals("-v"));
    }

    /** {@code args} without the global {@code --verbose} ({@code -v}) option. */
    public static String[] withoutVerbose(String... args) {
        return Arrays.stream(args).filter(a -> !a.equals("--verbose") && !a.equals("-v")).toArray(String[]::new);
    }

    /** The command tree with the common help layout ({@link HelpLayout}). */
    static CommandLine commandLine() {
        return commandLine(List.of());
    }

    /** The command tree with {@code extraCommands} added, in the common help layout. */
    public static CommandLine commandLine(List<Object> extraCommands) {
        CommandLine root = new CommandLine(new QuotaflowCommand());
        extraCommands.forEach(root::addSubcommand);
        CommandLine cli = HelpLayout.apply(root);
        namedExitCodes(cli);
        return cli;
    }

    /** picocli's own exit codes (a parse error, an exception out of a command) are {@link ExitCodes}'. */
    private static void namedExitCodes(CommandLine cli) {
        versionOption(cli.getCommandSpec());
        cli.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE).exitCodeOnExecutionException(ExitCodes.FAILURE)
                .exitCodeOnSuccess(ExitCodes.OK).exitCodeOnUsageHelp(ExitCodes.OK).exitCodeOnVersionHelp(ExitCodes.OK);
        cli.getSubcommands().values().forEach(QuotaflowCommand::namedExitCodes);
    }

    /** {@code -V, --version} on every command (as picocli's standard help options give the root), with the build's version. */
    private static void versionOption(CommandLine.Model.CommandSpec spec) {
        if (spec.userObject() instanceof CommandLine.HelpCommand) {
            return;
        }
        if (spec.findOption("--version") == null && spec.findOption("-V") == null) {
            spec.addOption(CommandLine.Model.OptionSpec.builder("-V", "--version").versionHelp(true)
                    .description("Print the version and exit.").build());
        }
        if (spec.version().length == 0) {
            spec.versionProvider(new Version());
        }
    }

    /** The version of the build: the filtered {@code io/quotaflow/version.properties}, else the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"quotaflow " + version()};
        }

        static String version() {
            try (InputStream in = QuotaflowCommand.class.getResourceAsStream("/io/quotaflow/version.properties")) {
                if (in != null) {
                    Properties p = new Properties();
                    p.load(in);
                    String v = p.getProperty("version", "");
                    if (!v.isBlank() && !v.contains("${")) {
                        return v.strip();
                    }
                }
            } catch (IOException e) {
                // fall back to the manifest
            }
            String v = QuotaflowCommand.class.getPackage().getImplementationVersion();
            return v == null ? "unknown (not built by Maven)" : v;
        }
    }
}
