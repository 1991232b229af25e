#pragma once
// OrderedDict<Key, Value>: LibTorch's insertion-ordered dictionary (torch::OrderedDict), which
// modules use for their parameters, buffers and children. Items come back in the order they were
// inserted, so `named_parameters()` lists "fc1.weight", "fc1.bias", "fc2.weight", ... as declared.
//
//   for (const auto& item : model->named_parameters()) std::cout << item.key() << " " << item.value().sizes();
//   for (const auto& [name, p] : model->named_parameters()) ...      // items are also std::pairs
//   model->named_parameters()["fc1.weight"]
#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"

namespace tinytorch {

template <typename Key, typename Value>
class OrderedDict {
 public:
  // One entry. It is a std::pair (structured bindings work) with LibTorch's key()/value() accessors.
  class Item : public std::pair<Key, Value> {
   public:
    Item(Key key, Value value) : std::pair<Key, Value>(std::move(key), std::move(value)) {}
    const Key& key() const noexcept { return this->first; }
    Value& value() noexcept { return this->second; }
    const Value& value() const noexcept { return this->second; }
    const std::pair<Key, Value>& pair() const noexcept { return *this; }
    Value& operator*() noexcept { return this->second; }
    const Value& operator*() const noexcept { return this->second; }
    Value* operator->() noexcept { return &this->second; }
    const Value* operator->() const noexcept { return &this->second; }
  };
  using Iterator = typename std::vector<Item>::iterator;
  using ConstIterator = typename std::vector<Item>::const_iterator;

  // key_description names the keys in error messages: "Parameter 'weight' already defined".
  explicit OrderedDict(std::string key_description = "Key") : key_description_(std::move(key_description)) {}

  const std::string& key_description() const noexcept { return key_description_; }

  Iterator begin() { return items_.begin(); }
  ConstIterator begin() const { return items_.begin(); }
  Iterator end() { return items_.end(); }
  ConstIterator end() const { return items_.end(); }

  size_t size() const noexcept { return items_.size(); }
  bool is_empty() const noexcept { return items_.empty(); }
  bool contains(const Key& key) const noexcept { return index_.count(key) != 0; }

  Item& front() {
    TT_CHECK(!items_.empty(), "Called front() on an empty OrderedDict");
    return items_.front();
  }
  Item& back() {
    TT_CHECK(!items_.empty(), "Called back() on an empty OrderedDict");
    return items_.back();
  }
  Item& operator[](size_t index) {
    TT_CHECK(index < items_.size(), "Index ", index, " is out of bounds");
    return items_[index];
  }
  const Item& operator[](size_t index) const {
    TT_CHECK(index < items_.size(), "Index ", index, " is out of bounds");
    return items_[index];
  }
  Value& operator[](const Key& key) {
    Value* value = find(key);
    TT_CHECK(value != nullptr, key_description_, " '", key, "' is not defined");
    return *value;
  }
  const Value& operator[](const Key& key) const {
    const Value* value = find(key);
    TT_CHECK(value != nullptr, key_description_, " '", key, "' is not defined");
    return *value;
  }
  // nullptr when the key is absent.
  Value* find(const Key& key) noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  const Value* find(const Key& key) const noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }

  // Inserts a new key; a key that is already there is an error (use update() or operator[] to change it).
  Value& insert(Key key, Value value) {
    TT_CHECK(index_.count(key) == 0, key_description_, " '", key, "' already defined");
    items_.emplace_back(key, std::move(value));
    index_.emplace(std::move(key), items_.size() - 1);
    return items_.back().value();
  }
  // Inserts or overwrites every item of `other`, keeping this dictionary's order for existing keys.
  void update(const OrderedDict& other) {
    for (const Item& item : other) {
      if (Value* value = find(item.key())) {
        *value = item.value();
      } else {
        insert(item.key(), item.value());
      }
    }
  }
  void erase(const Key& key) {
    auto it = index_.find(key);
    TT_CHECK(it != index_.end(), "Key '", key, "' doesn't exist");
    const size_t position = it->second;
    index_.erase(it);
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(position));
    for (auto& entry : index_) {
      if (entry.second > position) --entry.second;
    }
  }
  void clear() {
    items_.clear();
    index_.clear();
  }

  const std::vector<Item>& items() const noexcept { return items_; }
  std::vector<Key> keys() const {
    std::vector<Key> result;
    result.reserve(items_.size());
    for (const Item& item : items_) result.push_back(item.key());
    return result;
  }
  std::vector<Value> values() const {
    std::vector<Value> result;
    result.reserve(items_.size());
    for (const Item& item : items_) result.push_back(item.value());
    return result;
  }
  std::vector<std::pair<Key, Value>> pairs() const {
    return std::vector<std::pair<Key, Value>>(items_.begin(), items_.end());
  }

 private:
  std::vector<Item> items_;
  std::unordered_map<Key, size_t> index_;
  std::string key_description_;
};

}  // namespace tinytorch
