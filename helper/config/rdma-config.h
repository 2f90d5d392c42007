/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONFIG_H
#define RDMA_CONFIG_H

#include "ns3/attribute.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/type-id.h"

#include <iosfwd>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief A configuration error: the message names the file and line, or the
 * key and where its value came from, and says what was expected. Thrown by
 * RdmaConfig and RdmaExperiment before any simulation starts, so a command
 * line tool prints it and exits non-zero and Python raises it.
 */
class RdmaConfigError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/**
 * \ingroup rdma
 * \brief The keys of one experiment and their values: an INI file, then
 * command-line overrides, over the defaults.
 *
 * Keys are "group.name" (in an INI file, name under a [group] section). Two
 * kinds:
 * - plain keys an experiment declares with AddKey (topology, traffic,
 *   output, sim): a default and a help text with the unit;
 * - attribute groups (AddAttributeGroup): every attribute of an ns-3 TypeId
 *   (and of its parents up to, not including, Object, NetDevice or
 *   Application) becomes "group.AttributeName", its default and help taken
 *   from the TypeId itself, so keys never duplicate the models' attributes.
 *   Apply() turns them into Config::SetDefault calls.
 *
 * Parsing is Boost.Program_options' (INI files and "--group.name=value").
 * Every value is checked when set, before anything runs: attribute keys
 * with the attribute's own checker (its type and declared range), plain
 * keys with the checker they were declared with (RdmaCheckValue: ns-3's
 * checkers and DeserializeFromString, guarded so that no text makes ns-3
 * abort). Every error is an RdmaConfigError naming file and line (or the
 * --option), the key, the value and the expected form.
 */
class RdmaConfig
{
  public:
    /// One key of the schema.
    struct Key
    {
        std::string name;         //!< "group.name"
        std::string defaultValue; //!< as text
        std::string help;         //!< with the unit
        std::string typeId;       //!< the TypeId of an attribute key, else empty
        std::string attribute;    //!< the attribute's name, else empty
        bool perInstance{false};  //!< applied to chosen objects, not as a default
        bool ownDefault{false};   //!< an attribute key whose default here is not the TypeId's
        Ptr<const AttributeChecker> checker; //!< what its values must be (null: any text)
    };

    /**
     * \brief Declare a plain key.
     * \param name "group.name"
     * \param defaultValue its default, as text
     * \param help what it is, with its unit
     * \param checker what its values must be, as for an attribute
     *        (MakeTimeChecker(min), MakeDoubleChecker<double>(0, 1),
     *        MakeEnumChecker, RdmaMakeDataRateChecker, ...); null: any text,
     *        checked where it is read
     */
    void AddKey(const std::string& name,
                const std::string& defaultValue,
                const std::string& help,
                Ptr<const AttributeChecker> checker = nullptr);

    /**
     * \brief Declare every attribute of a TypeId as "group.Attribute".
     * \param group the key prefix (for example "link", "cc.dcqcn")
     * \param typeIdName the TypeId (for example "ns3::QbbNetDevice")
     * \param perInstance false: Apply() makes the values attribute defaults;
     *        true: Apply() leaves them alone and the experiment sets them on
     *        chosen objects (SetAttributes), as for one of several caches
     *        of the same TypeId
     * \param setByOtherKeys attributes that get no key of their own, for
     *        another key of the experiment chooses them (RdmaNic's ComputeIcrc
     *        by sim.icrc)
     * \throws RdmaConfigError if the TypeId does not exist
     */
    void AddAttributeGroup(const std::string& group,
                           const std::string& typeIdName,
                           bool perInstance = false,
                           const std::vector<std::string>& setByOtherKeys = {});

    /**
     * \brief Give an attribute key a default of this configuration's own,
     * in place of its TypeId's; Apply() then applies it even when unset.
     * \param name "group.Attribute", declared by AddAttributeGroup
     * \param value the new default, as text
     * \param why the reason, appended to the key's help
     * \throws RdmaConfigError if the key does not exist or is not an attribute key
     */
    void OverrideDefault(const std::string& name, const std::string& value, const std::string& why);

    /**
     * \brief The attribute keys of a group that were set (not defaults), to
     * be set on chosen objects (a perInstance group).
     * \param group the group, e.g. "cache.qpc" (not its subgroups)
     * \return attribute name and value as text, in declaration order
     */
    std::vector<std::pair<std::string, std::string>> GetGroupValues(const std::string& group) const;

    /// \return every key, in declaration order
    const std::vector<Key>& GetKeys() const;

    /// \return whether the key is declared (exactly as spelled)
    bool HasKey(const std::string& name) const;

    /// \return every key's name, in declaration order
    std::vector<std::string> GetKeyNames() const;

    /**
     * \brief The declared key a name stands for: itself, or the one key
     * that has the same letters in another case ("ecn.Kmin" for ecn.kmin,
     * "pfc.alpha" for pfc.Alpha: plain keys are lower camel case, attribute
     * keys the attribute's own case, and either case is accepted).
     * \param name the name as typed
     * \param origin where it was typed, for the error
     * \return the declared name
     * \throws RdmaConfigError naming origin and the name, with the nearest
     * declared keys ("did you mean", RdmaNearestKeys), if there is none
     */
    std::string Resolve(const std::string& name, const std::string& origin) const;

    /**
     * \brief Set a value.
     * \param name the key
     * \param value the value as text
     * \param origin where it came from ("file.ini:12", "command line", ...)
     * A key that counts bytes (an integer attribute whose name ends in
     * "Bytes" or whose help gives the unit as bytes) also takes a size with
     * its unit (RdmaParseByteSize: "12MiB", "500KB"), stored as the count of
     * bytes, the text as typed kept in its origin.
     * An enum key's value may be typed in any case ("spray" is Spray, "IRN"
     * is irn): the stored value is the declared name.
     * \throws RdmaConfigError if the key is unknown (Resolve) or its checker (the
     * attribute's, or the one AddKey was given) refuses the value (an enum's:
     * with the nearest names, "did you mean")
     */
    void Set(const std::string& name, const std::string& value, const std::string& origin);

    /**
     * \brief Read an INI file (Boost.Program_options syntax: [group]
     * sections, "name = value" lines, '#' comments).
     * \param path the file
     * \throws RdmaConfigError naming the file and line of an unknown key, a
     * syntax error, a repeated key or a bad value; if the file cannot be read
     */
    void ReadIniFile(const std::string& path);

    /**
     * \brief Read an INI text (the embedded defaults use it).
     * \param text the INI text
     * \param name the name errors give for it
     */
    void ReadIniText(const std::string& text, const std::string& name);

    /// \return the value of a key (its default if never set)
    /// \throws RdmaConfigError if the key is unknown
    const std::string& Get(const std::string& name) const;
    /// \return where the value came from ("default" if never set)
    const std::string& GetOrigin(const std::string& name) const;

    /**
     * \brief A file path value: relative paths set in an INI file are taken
     * from that file's folder, others from the working directory.
     * \param name the key \return the path ("" if the value is empty)
     */
    std::string GetPath(const std::string& name) const;

    /**
     * \brief GetPath for a file the run reads: it must exist and be readable.
     * \param name the key \return the path
     * \throws RdmaConfigError naming the key, its value, where it was set and why
     * the file cannot be read
     */
    std::string GetInputPath(const std::string& name) const;
    /**
     * \brief GetInputPath for a list of files separated by commas.
     * \param name the key \return the paths, in the order given
     * \throws RdmaConfigError as GetInputPath, naming the file that cannot be read
     */
    std::vector<std::string> GetInputPaths(const std::string& name) const;

    /// \return the value as a double \throws RdmaConfigError if it is not one
    double GetDouble(const std::string& name) const;
    /// \return the value as an unsigned integer \throws RdmaConfigError
    uint64_t GetUinteger(const std::string& name) const;
    /// \return the value as a bool (true/false/1/0) \throws RdmaConfigError
    bool GetBool(const std::string& name) const;
    /// \return the value as an ns-3 Time ("10us") \throws RdmaConfigError
    Time GetTime(const std::string& name) const;
    /// \return the value as a rate in bit/s ("100Gbps") \throws RdmaConfigError
    uint64_t GetBitRate(const std::string& name) const;

    /**
     * \brief Config::SetDefault for every attribute key whose value was set
     * (defaults are left alone). Call Config::Reset() after the run to
     * undo it.
     * \param groupPrefix only keys starting with it (empty: all)
     */
    void Apply(const std::string& groupPrefix = "") const;

    /**
     * \brief Write the merged configuration as INI, each set value's origin
     * in a comment.
     * \param os the stream
     * \param only if not null, only these keys (and only the groups that
     *        hold one)
     */
    void Print(std::ostream& os, const std::vector<std::string>* only = nullptr) const;

    /// \brief Write every key with its default and help, grouped, as --help
    /// shows it. \param os the stream
    void PrintHelp(std::ostream& os) const;

    /// \return the merged values by key (set values and defaults)
    std::map<std::string, std::string> GetValues() const;

  private:
    /// \return whether the key counts bytes (Set takes units for it) \param key the key
    static bool IsByteKey(const Key& key);
    /// \return the names an enum key takes (its EnumChecker's), or none if it
    /// is not an enum \param key the key
    static std::vector<std::string> EnumNames(const Key& key);
    /// \return the key's index \throws RdmaConfigError if unknown
    std::size_t Index(const std::string& name) const;
    /// Read one INI stream. \param in the stream \param name its name
    /// \param dir the folder relative paths in it are taken from ("": none)
    void ReadIni(std::istream& in, const std::string& name, const std::string& dir);

    std::vector<Key> m_keys;                     //!< the schema
    std::map<std::string, std::size_t> m_index;  //!< key name -> index
    std::map<std::string, std::string> m_values; //!< set values
    std::map<std::string, std::string> m_origin; //!< where each came from
    std::map<std::string, std::string> m_dir;    //!< folder of the file that set it
};

} // namespace ns3

#endif /* RDMA_CONFIG_H */
