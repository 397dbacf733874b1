package dev.muster.cli;

import java.nio.file.Path;
import java.util.List;

/** {@link AirflowMusterUpScenarios} on muster up's embedded API server with Muster's default configuration: the run expected to end sooner first. */
class AirflowOnEmbeddedMusterUpTest extends AirflowMusterUpScenarios {
    @Override
    List<String> options(Path directory) {
        return List.of("--apiserver", "embedded");
    }

    @Override
    boolean shortRunFirst() {
        return true;
    }
}
