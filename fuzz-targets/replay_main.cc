// A main for builds without libFuzzer (g++): runs LLVMFuzzerTestOneInput over every file named
// on the command line, descending into directories in name order, so the corpora replay under
// CTest and anyone can reproduce a crash file without clang.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::filesystem::path> InputFiles(const std::filesystem::path& path) {
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(path)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    if (!std::filesystem::exists(path)) {
      std::cerr << path.string() << ": no such file or directory\n";
      return 2;
    }
    for (const auto& file : InputFiles(path)) {
      std::ifstream in(file, std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      const std::string input = bytes.str();
      std::cerr << "replaying " << file.string() << "\n";
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
      ++count;
    }
  }
  if (count == 0) {
    std::cerr << "no inputs: name corpus files or directories\n";
    return 2;
  }
  std::cerr << "replayed " << count << " inputs\n";
  return 0;
}
