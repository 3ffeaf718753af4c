package io.quotaflow.dev;

import io.quotaflow.cli.QuotaflowCommand;

import java.util.List;

/**
 * The developer distribution's entry point ({@code ./quotaflow}): every production command plus
 * {@code demo}, {@code bench}, {@code broker} and {@code sim}, which need the in-process broker and
 * the provider simulator that the production jar does not carry.
 */
public final class QuotaflowDevCommand {

    private QuotaflowDevCommand() {
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the developer command line and returns its exit code. */
    public static int execute(String... args) {
        quietInProcessBroker(args);
        return QuotaflowCommand.execute(commands(), args);
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
        if (!QuotaflowCommand.verbose(args) && rest.length > 0 && (rest[0].equals("demo") || rest[0].equals("bench"))) {
            System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "error");
            System.setProperty("org.slf4j.simpleLogger.log.io.quotaflow.admin.TopicsApplier", "error");
        }
    }
}
