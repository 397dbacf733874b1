package dev.muster.cli;

import static com.google.common.base.Preconditions.checkState;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.muster.engine.config.DefaultSchedulerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@link AirflowMusterUpScenarios} on a real kube-apiserver and etcd (whose pods/log KubernetesPodOperator
 * reads from the simulated kubelet's API), with Muster's default configuration but the {@code dag} plugin's
 * {@code across-dags: longest-path}: of the competing runs, the task on the longer remaining path first.
 */
class AirflowOnRealMusterUpTest extends AirflowMusterUpScenarios {
    private static final String DAG_PLUGIN = "  - name: dag\n";

    @Override
    List<String> options(Path directory) throws Exception {
        String defaults = DefaultSchedulerConfig.text();
        checkState(defaults.contains(DAG_PLUGIN), "the default configuration lists no dag plugin:%n%s", defaults);
        Path config = Files.writeString(directory.resolve("longest-path.conf"),
                defaults.replace(DAG_PLUGIN, DAG_PLUGIN + "    arguments:\n      across-dags: longest-path\n"), UTF_8);
        return List.of("--apiserver", "real", "--config", config.toString());
    }

    @Override
    boolean shortRunFirst() {
        return false;
    }
}
