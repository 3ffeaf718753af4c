package io.quotaflow.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Core's cycle rule ({@link PackageCyclesTest#NO_PACKAGE_CYCLES}) over every module's production code:
 * this module's test classpath holds them all (core, records, wire, testkit, simulator, cli, bench), so a
 * cycle through a module built on core fails here.
 */
class AllModulesCyclesTest {

    @Test
    void shouldHaveNoPackageCycleInAnyModule() {
        JavaClasses production = new ClassFileImporter().withImportOption(PackageCyclesTest.PRODUCTION_ONLY).importPackages("io.quotaflow");

        assertThat(production.stream().map(c -> c.getPackageName()).distinct())
                .as("the scan sees every module")
                .contains("io.quotaflow.records", "io.quotaflow.wire", "io.quotaflow.simulator", "io.quotaflow.testkit",
                        "io.quotaflow.dispatch", "io.quotaflow.dispatch.ledger", "io.quotaflow.failure", "io.quotaflow.routing",
                        "io.quotaflow.topology", "io.quotaflow.cli", "io.quotaflow.dev", "io.quotaflow.bench");
        PackageCyclesTest.NO_PACKAGE_CYCLES.check(production);
    }
}
