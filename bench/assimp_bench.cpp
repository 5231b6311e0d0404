// assimp_bench: load throughput of Assimp's importers, measured the way `retromodel bench`
// measures retromodel, so that bench/compare.sh can put the two side by side.
//
//   assimp_bench [--rounds N] [--quiet] LIST
//
// LIST holds one file path per line ("-" reads the list from standard input). Every file is
// read into memory first; only Assimp::Importer::ReadFileFromMemory(buffer, length, 0, hint)
// is timed, with one Importer for all files and FreeScene after each, over all loaded files
// N times. The hint is the file's extension (md5mesh, md5anim, mdl, ...): Assimp's memory IO
// system answers every name that starts with its magic file name with the buffer, so the MD5
// loader, which opens "<name without extension>.md5mesh" itself, reads the buffer too. No
// post-processing flag is given (0). AI_CONFIG_IMPORT_MD5_NO_ANIM_AUTOLOAD is set, so an
// md5mesh loads alone and an md5anim loads alone. Assimp's logger is the silent NullLogger.
//
// Assimp 5.2.5 crashes on some real files (heap corruption in the MDL7 and MD2 loaders), and
// whether it does can depend on what was loaded before. So no Assimp call is made in this
// process:
//   1. each file is loaded once in a child process of its own (fork): those that fail,
//      crash or hang are reported and left out;
//   2. the measurement (one untimed warm-up round, then N timed rounds) runs in one more
//      child; if that child crashes, the file it was loading is reported ("crashed after
//      the others") and left out, and the measurement starts again without it.
//
// Output (standard output): one line per listed file, then one line of totals with the keys
// `retromodel bench` prints:
//   loaded<TAB>PATH
//   failed<TAB>PATH<TAB>WHY           (Assimp's error string, "crashed (signal S)", ...)
//   files=F bytes=B rounds=N seconds=S MBps=M files_per_s=R listed=L failed=X
// F and B count the loaded files only; MB/s is B * N / S / 1e6.
//
// Exit status: 0 when at least one file loaded, 1 when none did, 2 on a usage error.
//
// Built by bench/compare.sh: g++ -std=c++17 -O2 bench/assimp_bench.cpp -lassimp

#include <assimp/DefaultLogger.hpp>
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/scene.h>

#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

struct Input {
    std::string path;
    std::string hint;  // the extension, lower case, without the dot
    std::vector<char> data;
    std::string error;  // empty: loaded
};

// Seconds a child may take to load one file before it is reported as hung.
constexpr unsigned kProbeTimeout = 120;
// Seconds the measuring child may take in all.
constexpr unsigned kMeasureTimeout = 3000;
// How many crashes in the measuring child are tolerated before giving up.
constexpr int kMaxRestarts = 100;

void usage(FILE *to) {
    std::fprintf(to,
                 "usage: assimp_bench [--rounds N] [--quiet] LIST\n"
                 "Times Assimp::Importer::ReadFileFromMemory (no post-processing) over the\n"
                 "files of LIST, read into memory first.\n"
                 "  LIST      a file with one model path per line (- for standard input)\n"
                 "  --rounds  how many times the loaded files are loaded, timed (default 10)\n"
                 "  --quiet   print the totals line only, not one line per file\n");
}

std::string lower_extension(const std::string &path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
        return "";
    }
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

void configure(Assimp::Importer &importer) {
    // An md5mesh loads alone (no md5anim of the same name looked for), an md5anim alone.
    importer.SetPropertyInteger(AI_CONFIG_IMPORT_MD5_NO_ANIM_AUTOLOAD, 1);
}

const aiScene *load(Assimp::Importer &importer, const Input &in) {
    return importer.ReadFileFromMemory(in.data.data(), in.data.size(), 0, in.hint.c_str());
}

std::string signal_text(int status, unsigned timeout) {
    if (WTERMSIG(status) == SIGALRM) {
        return "timed out after " + std::to_string(timeout) + " s";
    }
    return "crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
}

// Loads `in` in a child process. Returns an empty string when it loaded, else why not.
std::string probe(const Input &in) {
    int fds[2];
    if (pipe(fds) != 0) {
        return std::string("pipe: ") + std::strerror(errno);
    }
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        return std::string("fork: ") + std::strerror(errno);
    }
    if (pid == 0) {
        close(fds[0]);
        alarm(kProbeTimeout);
        std::string error;
        try {
            Assimp::Importer importer;
            configure(importer);
            if (load(importer, in) == nullptr) {
                error = importer.GetErrorString();
                if (error.empty()) {
                    error = "no scene";
                }
            }
        } catch (const std::exception &e) {
            error = std::string("exception: ") + e.what();
        } catch (...) {
            error = "exception";
        }
        std::replace(error.begin(), error.end(), '\n', ' ');
        std::replace(error.begin(), error.end(), '\t', ' ');
        if (!error.empty()) {
            ssize_t unused = write(fds[1], error.data(), error.size());
            (void)unused;
        }
        _exit(error.empty() ? 0 : 1);
    }
    close(fds[1]);
    std::string message;
    char buf[4096];
    for (;;) {
        const ssize_t n = read(fds[0], buf, sizeof buf);
        if (n > 0) {
            message.append(buf, static_cast<size_t>(n));
        } else if (n == 0 || errno != EINTR) {
            break;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) {
        return signal_text(status, kProbeTimeout);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return "";
    }
    return message.empty() ? "failed" : message;
}

// What the measuring child shares with this process.
struct Shared {
    volatile size_t current;  // index into the measured files of the load under way
    volatile int phase;       // 0 warm-up, 1 timed
    volatile double seconds;  // set when done
    volatile int done;        // 1 when every load succeeded, 2 when one returned no scene
    char error[512];          // Assimp's error string when done is 2
};

// Records the importer's error in `shared` and ends the (measuring) child.
[[noreturn]] void no_scene(Shared *shared, const Assimp::Importer &importer) {
    std::snprintf(shared->error, sizeof shared->error, "%s", importer.GetErrorString());
    shared->done = 2;
    _exit(1);
}

enum class Measure { Done, Crashed, Failed };

// Runs the warm-up and the timed rounds over `files` in a child. On a crash, `*culprit` is
// the index of the file being loaded and `*why` says what happened.
Measure measure(const std::vector<const Input *> &files, long rounds, Shared *shared,
                size_t *culprit, std::string *why) {
    shared->current = 0;
    shared->phase = 0;
    shared->seconds = 0;
    shared->done = 0;
    shared->error[0] = '\0';
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        *why = std::string("fork: ") + std::strerror(errno);
        return Measure::Failed;
    }
    if (pid == 0) {
        alarm(kMeasureTimeout);
        Assimp::Importer importer;
        configure(importer);
        for (size_t i = 0; i < files.size(); ++i) {
            shared->current = i;
            if (load(importer, *files[i]) == nullptr) {
                no_scene(shared, importer);
            }
            importer.FreeScene();
        }
        shared->phase = 1;
        const auto start = std::chrono::steady_clock::now();
        for (long r = 0; r < rounds; ++r) {
            for (size_t i = 0; i < files.size(); ++i) {
                shared->current = i;
                if (load(importer, *files[i]) == nullptr) {
                    no_scene(shared, importer);
                }
                importer.FreeScene();
            }
        }
        shared->seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        shared->done = 1;
        _exit(0);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && shared->done == 1) {
        return Measure::Done;
    }
    *culprit = shared->current;
    if (WIFSIGNALED(status)) {
        *why = signal_text(status, kMeasureTimeout);
    } else {
        *why = std::string("no scene: ") + shared->error;
        std::replace(why->begin(), why->end(), '\n', ' ');
        std::replace(why->begin(), why->end(), '\t', ' ');
    }
    *why += shared->phase == 0 ? " when loaded after the others (warm-up round)"
                               : " when loaded after the others (timed round)";
    return Measure::Crashed;
}

}  // namespace

int main(int argc, char **argv) {
    long rounds = 10;
    bool quiet = false;
    std::string list;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        } else if (a == "--rounds" && i + 1 < argc) {
            char *end = nullptr;
            rounds = std::strtol(argv[++i], &end, 10);
            if (*end != '\0' || rounds < 1) {
                std::fprintf(stderr, "assimp_bench: --rounds wants a positive number, not %s\n",
                             argv[i]);
                return 2;
            }
        } else if (a == "--quiet") {
            quiet = true;
        } else if (list.empty() && (a == "-" || a[0] != '-')) {
            list = a;
        } else {
            std::fprintf(stderr, "assimp_bench: unexpected argument %s\n", a.c_str());
            usage(stderr);
            return 2;
        }
    }
    if (list.empty()) {
        usage(stderr);
        return 2;
    }

    Assimp::DefaultLogger::kill();  // the NullLogger: nothing printed

    std::ifstream list_file;
    std::istream *lines = &std::cin;
    if (list != "-") {
        list_file.open(list);
        if (!list_file) {
            std::fprintf(stderr, "assimp_bench: cannot read the list %s\n", list.c_str());
            return 2;
        }
        lines = &list_file;
    }

    // Read every file, then load each once in a child of its own.
    std::vector<Input> inputs;
    std::string path;
    while (std::getline(*lines, path)) {
        if (!path.empty() && path.back() == '\r') {
            path.pop_back();
        }
        if (path.empty()) {
            continue;
        }
        Input in;
        in.path = path;
        in.hint = lower_extension(path);
        std::ifstream f(path, std::ios::binary);
        if (!f) {
            in.error = "cannot read the file";
        } else {
            in.data.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
            in.error = in.data.empty() ? "empty file" : probe(in);
        }
        inputs.push_back(std::move(in));
    }

    // Measure in a child; a file that crashes it is left out and the measurement restarts.
    void *map = mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                     -1, 0);
    if (map == MAP_FAILED) {
        std::perror("assimp_bench: mmap");
        return 1;
    }
    Shared *shared = static_cast<Shared *>(map);
    double seconds = 0;
    std::vector<const Input *> files;
    for (int attempt = 0;; ++attempt) {
        files.clear();
        for (const Input &in : inputs) {
            if (in.error.empty()) {
                files.push_back(&in);
            }
        }
        if (files.empty()) {
            break;
        }
        size_t culprit = 0;
        std::string why;
        const Measure m = measure(files, rounds, shared, &culprit, &why);
        if (m == Measure::Done) {
            seconds = shared->seconds;
            break;
        }
        if (m == Measure::Failed || attempt == kMaxRestarts) {
            std::fprintf(stderr, "assimp_bench: cannot measure: %s\n",
                         m == Measure::Failed ? why.c_str() : "too many crashes");
            return 1;
        }
        const_cast<Input *>(files[culprit])->error = why;
    }

    size_t bytes = 0;
    for (const Input *in : files) {
        bytes += in->data.size();
    }
    for (const Input &in : inputs) {
        if (quiet) {
            break;
        }
        if (in.error.empty()) {
            std::printf("loaded\t%s\n", in.path.c_str());
        } else {
            std::printf("failed\t%s\t%s\n", in.path.c_str(), in.error.c_str());
        }
    }
    const size_t failed = inputs.size() - files.size();
    if (files.empty()) {
        std::printf("files=0 bytes=0 rounds=%ld seconds=0 MBps=0 files_per_s=0 listed=%zu "
                    "failed=%zu\n",
                    rounds, inputs.size(), failed);
        std::fprintf(stderr, "assimp_bench: Assimp loaded none of the %zu files\n",
                     inputs.size());
        return 1;
    }
    const double total = static_cast<double>(rounds);
    std::printf("files=%zu bytes=%zu rounds=%ld seconds=%.3f MBps=%.1f files_per_s=%.0f "
                "listed=%zu failed=%zu\n",
                files.size(), bytes, rounds, seconds,
                static_cast<double>(bytes) * total / seconds / 1e6,
                static_cast<double>(files.size()) * total / seconds, inputs.size(), failed);
    return 0;
}
