package io.quotaflow.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Core's cycle rule ({@link PackageCyclesTest#NO_PACKAGE_CYCLES}) over every module's production code:
 * this module's test classpath holds them all (core, records, tokens, testkit, simulator, cli, bench), so a
 * cycle through a module built on core fails here. No bench class sits in one of core's packages.
 */
class AllModulesCyclesTest {

    @Test
    void shouldHaveNoPackageCycleInAnyModule() {
        JavaClasses production = new ClassFileImporter().withImportOption(PackageCyclesTest.PRODUCTION_ONLY).importPackages("io.quotaflow");

        assertThat(production.stream().map(c -> c.getPackageName()).distinct())
                .as("the scan sees every module")
                .contains("io.quotaflow.records", "io.quotaflow.tokens", "io.quotaflow.duration", "io.quotaflow.simulator", "io.quotaflow.testkit",
                        "io.quotaflow.dispatch", "io.quotaflow.dispatch.ledger", "io.quotaflow.failure", "io.quotaflow.routing",
                        "io.quotaflow.topology", "io.quotaflow.cli", "io.quotaflow.dev", "io.quotaflow.bench");
        PackageCyclesTest.NO_PACKAGE_CYCLES.check(production);
    }

    @Test
    void shouldKeepEveryBenchClassOutOfCorePackages() {
        JavaClasses production = new ClassFileImporter().withImportOption(PackageCyclesTest.PRODUCTION_ONLY).importPackages("io.quotaflow");
        Set<String> core = packagesOf(production, "quotaflow-core");

        assertThat(core).as("the scan sees core").contains("io.quotaflow.dispatch", "io.quotaflow.dispatch.ledger");
        assertThat(packagesOf(production, "quotaflow-bench"))
                .as("the bench's packages, none shared with core (no split package: core's parts are reached through its public API)")
                .isNotEmpty()
                .doesNotContainAnyElementsOf(core);
    }

    /** The packages of the classes loaded from {@code module} (its classes directory or its jar). */
    private static Set<String> packagesOf(JavaClasses classes, String module) {
        return classes.stream().filter(c -> c.getSource().map(s -> s.getUri().toString().contains(module)).orElse(false))
                .map(JavaClass::getPackageName).collect(Collectors.toSet());
    }
}
