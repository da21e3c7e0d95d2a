#pragma once
//! The one way gpuplan writes its outputs: a command's files are staged in a private folder next
//! to the output folder and published with one rename, so a reader (or a killed run) sees the
//! old set or the new set, never a mix (docs/reliability.md, "Outputs and inputs").
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::reports {

//! Why an output folder may not be used, or "" when it may: `target` must not be the current
//! folder or one above it, must be a folder when it exists, and may hold only what gpuplan writes
//! (its output files, `point-N/`, `a/`, `b/`, and the names in `also_ours`), because publishing
//! replaces the folder as a whole. Reads only; call it before any work is done.
[[nodiscard]] std::string output_folder_problem(const std::filesystem::path& target,
                                                const std::vector<std::string>& also_ours = {});

//! One command's output folder, staged whole in `<parent>/.<name>.gpuplan-XXXXXX/` and published
//! by commit(); destroying it uncommitted removes the staged files and leaves the target as it was.
class OutputFolder {
 public:
  //! Creates the parent folders and the staging folder for `target`; nullptr with `error` set
  //! (one sentence naming the folder) when output_folder_problem() objects or the file system
  //! refuses.
  [[nodiscard]] static std::unique_ptr<OutputFolder> stage(
      const std::filesystem::path& target, std::string& error,
      const std::vector<std::string>& also_ours = {});

  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  ~OutputFolder();

  //! Writes `content` to `relative` ("result.json", or "point-3/result.json": one subfolder
  //! level, created on demand) in the staging folder: a new file (O_EXCL, no symlink followed)
  //! whose flush to disk starts now, and which commit() waits for. False with error() set on any
  //! failure, or when `relative` would leave the folder.
  [[nodiscard]] bool write(const std::string& relative, std::string_view content);

  //! Where `relative` is staged, for a file another writer produces (the --jobs CSV, quote.pdf).
  [[nodiscard]] std::filesystem::path staged(const std::string& relative) const;

  //! Waits until every written file is on disk, then publishes the staged folder as the target
  //! with one rename (an existing target is swapped out atomically and then removed); false with
  //! error() set, the target then unchanged.
  [[nodiscard]] bool commit();

  //! The folder the files appear in once committed.
  [[nodiscard]] const std::filesystem::path& target() const { return target_; }
  //! The last failure, one sentence naming the path; "" when none.
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  OutputFolder(std::filesystem::path target, std::filesystem::path staging,
               std::vector<std::string> also_ours)
      : target_(std::move(target)),
        staging_(std::move(staging)),
        also_ours_(std::move(also_ours)) {}

  //! A written file whose flush to disk commit() has yet to wait for.
  struct Unsynced {
    int fd;
    std::string relative;
  };
  //! Files written but not yet known to be on disk, at most MAX_UNSYNCED: their flushes run
  //! while the next files are rendered, rather than one after the other.
  static constexpr size_t MAX_UNSYNCED = 8;
  //! Waits for the flush of each unsynced file and closes it; false with error() set at the
  //! first that failed (the rest are closed too).
  [[nodiscard]] bool sync_written();

  std::vector<Unsynced> unsynced_;
  std::filesystem::path target_;        //!< absolute, symlinks of existing parts resolved
  std::filesystem::path staging_;       //!< "" once committed
  std::vector<std::string> also_ours_;  //!< file names of this command beyond gpuplan's own
  std::string error_;
};

}  // namespace gpuplan::reports
