package io.quotaflow.cli;

import io.quotaflow.admin.ClusterCheck;
import io.quotaflow.settings.ClusterSettings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.util.Map;
import java.util.Set;

/**
 * Before a command runs: hands it (and its mixins) the environment when it reads one
 * ({@link ReadsEnvironment}); for a command that talks to a cluster, resolves the settings (a
 * problem is a usage error, exit 2) and asks the cluster to answer once ({@link ClusterCheck}); an
 * unreachable cluster is one line and exit 1.
 */
final class ClusterPreflight {

    private ClusterPreflight() {
    }

    /** Null to go on with the command, else the exit code to stop with. */
    static Integer run(ParseResult parseResult, Map<String, String> env, Set<String> extraVariables) {
        ParseResult last = parseResult;
        while (true) {
            if (last.isUsageHelpRequested() || last.isVersionHelpRequested()) {
                return null;
            }
            if (!last.hasSubcommand()) {
                break;
            }
            last = last.subcommand();
        }
        CommandSpec spec = last.commandSpec();
        if (spec.userObject() instanceof ReadsEnvironment reader) {
            reader.environment(env, extraVariables);
        }
        KafkaConnectionOptions options = null;
        for (CommandSpec mixin : spec.mixins().values()) {
            if (mixin.userObject() instanceof ReadsEnvironment reader) {
                reader.environment(env, extraVariables);
            }
            if (mixin.userObject() instanceof KafkaConnectionOptions k) {
                options = k;
            }
        }
        if (options == null || !asksCluster(spec.userObject())) {
            return null;
        }
        return check(options.cluster(), spec.qualifiedName(), spec.commandLine().getErr());
    }

    /**
     * Whether the command needs the cluster checked first: not run nor check (they check the cluster themselves,
     * after their whole configuration is known to be right), nor status --url (it asks the instance named).
     */
    private static boolean asksCluster(Object command) {
        if (command instanceof RunCommand || command instanceof CheckCommand) {
            // check reports an unreachable cluster as one of its lines
            return false;
        }
        return !(command instanceof StatusCommand status && status.url != null);
    }

    /** Null when the cluster answered, else prints why not in one line and returns exit code 1. */
    static Integer check(ClusterSettings cluster, String command, PrintWriter err) {
        ClusterCheck.Result result = ClusterCheck.check(cluster);
        if (result instanceof ClusterCheck.Unreachable unreachable) {
            err.println(command + ": " + unreachable.reason());
            err.flush();
            return ExitCodes.FAILURE;
        }
        return null;
    }
}
