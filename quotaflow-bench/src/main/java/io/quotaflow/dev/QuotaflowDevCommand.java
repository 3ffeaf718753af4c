package io.quotaflow.dev;

import io.quotaflow.cli.QuotaflowCommand;

import java.util.List;
import java.util.Set;

/**
 * The developer distribution's entry point ({@code ./quotaflow}): every production command plus
 * {@code demo}, {@code bench}, {@code broker} and {@code sim}, which need the in-process broker and
 * the provider simulator that the production jar does not carry.
 */
public final class QuotaflowDevCommand {

    /**
     * The {@code QUOTAFLOW_*} variables this distribution's commands read: registered with the command
     * line beside the commands, so that the strict configuration loader accepts them here (and only here).
     */
    public static final Set<String> VARIABLES = Set.of(SimCommand.API_KEYS_ENV, BenchCommand.PIPELINE_JVM_OPTS_ENV);

    /** The system property naming logback's configuration (a class path resource here). */
    static final String LOGBACK_CONFIGURATION = "logback.configurationFile";

    private QuotaflowDevCommand() {
    }

    public static void main(String[] args) {
        // before anything reads it: model answers handed on by pooled threads, not a thread each (AsyncPool)
        io.quotaflow.http.AsyncPool.useCommonPool();
        // this distribution's logging (quiet loggers for the in-process broker), unless one is chosen
        if (System.getProperty(LOGBACK_CONFIGURATION) == null) {
            System.setProperty(LOGBACK_CONFIGURATION, "quotaflow-dev-logback.xml");
        }
        io.quotaflow.cli.GracefulStop.exit(execute(args));
    }

    /** Runs the developer command line and returns its exit code. */
    public static int execute(String... args) {
        quietInProcessBroker(args);
        return QuotaflowCommand.execute(commands(), VARIABLES, args);
    }

    /** The commands of the developer distribution, beside the production ones. */
    public static List<Object> commands() {
        return List.of(new DemoCommand(), new BenchCommand(), new BrokerCommand(), new SimCommand());
    }

    /**
     * The demo and the bench run a broker, clients and the simulator in one JVM on a temporary
     * directory: their start-up warnings (temporary state dir, topics not yet known, capped
     * replication) are expected there, so they are hidden unless {@code --verbose} asks for them.
     */
    private static void quietInProcessBroker(String[] args) {
        String[] rest = QuotaflowCommand.withoutVerbose(args);
        if (QuotaflowCommand.verbose(args)) {
            // read by quotaflow-dev-logback.xml, loaded after this
            System.setProperty("quotaflow.log.network", "INFO");
        } else if (rest.length > 0 && (rest[0].equals("demo") || rest[0].equals("bench"))) {
            System.setProperty("quotaflow.log.kafka", "ERROR");
        }
    }
}
